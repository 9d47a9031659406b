import { CATALOG_ENTITIES } from '@cota/contracts';
import { loadPolicyFolder, PolicyError, policiesDir } from '@cota/config';
import { EntityCatalog, EntityDefSchema } from './entity-def';

/** The 22 entity names fixed by CONTRACT.md; the catalog must hold exactly these. */
export { CATALOG_ENTITIES };

/**
 * Reads `policies/entities/*.yaml` once at start-up. A bad file (or a missing/extra entity, or a
 * file whose name differs from its `entity`) throws PolicyError naming file and field.
 */
export function loadEntityCatalog(dir = policiesDir()): EntityCatalog {
  const catalog = loadPolicyFolder('entities', EntityDefSchema, dir);
  for (const [file, def] of Object.entries(catalog)) {
    if (def.entity !== file) throw new PolicyError(`policies/entities/${file}.yaml`, 'entity', `must equal the file name '${file}'`);
  }
  for (const name of CATALOG_ENTITIES) {
    if (!catalog[name]) throw new PolicyError(`policies/entities/${name}.yaml`, '(file)', 'is missing: every catalog entity needs its file');
  }
  for (const name of Object.keys(catalog)) {
    if (!(CATALOG_ENTITIES as readonly string[]).includes(name)) {
      throw new PolicyError(`policies/entities/${name}.yaml`, 'entity', 'is not an entity of the contract catalog');
    }
  }
  return catalog;
}
