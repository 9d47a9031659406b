import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { loadPolicyFolder, policiesDir } from '@cota/config';
import type { CatalogColumns } from './templates';

/**
 * Column names per entity, read from `policies/entities/*.yaml` (the warehouse's entity catalog).
 * The narrator needs only the names to check its templates, so it reads them loosely and leaves
 * validating the catalog itself to the warehouse. Null when the catalog folder is absent.
 */
const LooseEntity = z
  .object({ entity: z.string(), columns: z.array(z.object({ name: z.string() }).passthrough()).min(1) })
  .passthrough();

export function loadCatalogColumns(dir: string = policiesDir()): CatalogColumns | null {
  const folder = join(dir, 'entities');
  if (!existsSync(folder) || !readdirSync(folder).some((f) => f.endsWith('.yaml'))) return null;
  const entities = loadPolicyFolder('entities', LooseEntity, dir);
  return Object.fromEntries(Object.entries(entities).map(([name, def]) => [name, def.columns.map((c) => c.name)]));
}
