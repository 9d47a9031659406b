import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { policiesDir } from '@cota/config';
import { loadEntityCatalog } from '@cota/catalog';
import type { CatalogColumns } from './templates';

/**
 * Column names per entity from the entity catalog (`policies/entities/*.yaml`, validated by
 * @cota/catalog); the narrator checks its templates against them. Null when the folder is absent.
 */
export function loadCatalogColumns(dir: string = policiesDir()): CatalogColumns | null {
  if (!existsSync(join(dir, 'entities'))) return null;
  const catalog = loadEntityCatalog(dir);
  return Object.fromEntries(Object.entries(catalog).map(([name, def]) => [name, def.columns.map((c) => c.name)]));
}
