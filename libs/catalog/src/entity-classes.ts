import { policiesDir } from '@cota/config';
import type { EntityCatalog, EntityDef } from './entity-def';
import { loadEntityCatalog } from './load-catalog';

/**
 * An entity's class, as its file declares it (`scope` in policies/entities/<entity>.yaml): fund
 * entities answer about funds, market entities about the market, client entities about the
 * authenticated client's own data.
 */
export type EntityClass = EntityDef['scope'];

/** Every catalog entity's class, by entity name. */
export type EntityClasses = Readonly<Record<string, EntityClass>>;

export function entityClasses(catalog: EntityCatalog): EntityClasses {
  return Object.fromEntries(Object.entries(catalog).map(([name, def]) => [name, def.scope]));
}

/** Reads the classes from policies/entities/*.yaml (once, at start-up); a bad file throws PolicyError. */
export function loadEntityClasses(dir = policiesDir()): EntityClasses {
  return entityClasses(loadEntityCatalog(dir));
}

/** The entities of one class, in catalog order. */
export function entitiesOfClass(classes: EntityClasses, cls: EntityClass): string[] {
  return Object.keys(classes).filter((name) => classes[name] === cls);
}

/**
 * The entities a question about the client's funds can be asked of ("quem administra os meus fiis?"),
 * each with the key of its `held` filter, by entity name.
 */
export function heldFilters(catalog: EntityCatalog): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, def] of Object.entries(catalog)) {
    const key = Object.keys(def.filters).find((k) => def.filters[k].match === 'held');
    if (key) out[name] = key;
  }
  return out;
}

/** A column an entity's rows can be ordered by: its label, its type and whether the entity orders by it unless told. */
export interface OrderableColumn {
  column: string;
  label: string;
  type: string;
  default: boolean;
}

/** The columns each entity's rows can be ordered by, with their labels ("Valor da causa (R$)"), by entity name. */
export function orderableColumns(catalog: EntityCatalog): Readonly<Record<string, ReadonlyArray<OrderableColumn>>> {
  return Object.fromEntries(
    Object.entries(catalog).map(([name, def]) => [
      name,
      def.orderings.map((column) => {
        const col = def.columns.find((c) => c.name === column);
        return { column, label: col?.label ?? column, type: col?.type ?? 'text', default: def.default_order.by === column };
      }),
    ]),
  );
}
