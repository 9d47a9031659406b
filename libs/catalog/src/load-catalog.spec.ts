import { mkdtempSync, cpSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolicyError, policiesDir } from '@cota/config';
import { entitiesOfClass, entityClasses, heldFilters } from './entity-classes';
import { CATALOG_ENTITIES, loadEntityCatalog } from './load-catalog';

describe('entity catalog', () => {
  it('holds exactly the 22 contract entities, each valid', () => {
    const c = loadEntityCatalog();
    expect(Object.keys(c).sort()).toEqual([...CATALOG_ENTITIES].sort());
    for (const e of Object.values(c)) {
      // Positions may be narrowed to a fund the question names (never inherited: the planner's ticker source is the text).
      if (e.scope === 'client') expect(e.identifiers).toEqual({ ticker: e.entity === 'client_fiis_positions', client: true });
      else expect(e.identifiers.client).toBe(false);
    }
  });

  it('classes each entity as its file declares: the funds, market and client data of the contract', () => {
    const classes = entityClasses(loadEntityCatalog());
    expect(entitiesOfClass(classes, 'market').sort()).toEqual(['history_b3_indexes', 'history_currency_rates', 'history_market_indicators', 'macro_consolidada']);
    expect(entitiesOfClass(classes, 'client')).toHaveLength(5);
    expect(entitiesOfClass(classes, 'fund')).toHaveLength(13);
    expect(classes.fii_overview).toBe('fund');
    expect(classes.client_fiis_positions).toBe('client');
  });

  it("a fund's record can be asked of the client's funds, never a client's view or the market's", () => {
    const c = loadEntityCatalog();
    const held = heldFilters(c);
    expect(held).toMatchObject({ fiis_cadastro: 'held', fiis_imoveis: 'held', fiis_processos: 'held', fii_overview: 'held' });
    for (const entity of Object.keys(held)) expect(c[entity].scope).toBe('fund');
  });

  it('a bad file stops start-up naming file and field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cota-catalog-'));
    try {
      cpSync(join(policiesDir(), 'entities'), join(dir, 'entities'), { recursive: true });
      const f = join(dir, 'entities', 'fiis_precos.yaml');
      writeFileSync(f, readFileSync(f, 'utf8').replace('by: traded_at', 'by: "traded_at; DROP TABLE x"'));
      expect(() => loadEntityCatalog(dir)).toThrow(PolicyError);
      expect(() => loadEntityCatalog(dir)).toThrow(/fiis_precos\.yaml: field 'default_order\.by'/);
      rmSync(join(dir, 'entities', 'fiis_precos.yaml'));
      expect(() => loadEntityCatalog(dir)).toThrow(/fiis_precos\.yaml: field '\(file\)' is missing/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a rank column names the column it ranks (its plausible bounds keep the ranking honest)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cota-catalog-'));
    try {
      cpSync(join(policiesDir(), 'entities'), join(dir, 'entities'), { recursive: true });
      const r = join(dir, 'entities', 'fiis_rankings.yaml');
      writeFileSync(r, readFileSync(r, 'utf8').replace('ranks: dy_12m_pct', 'ranks: dy_doze_meses'));
      expect(() => loadEntityCatalog(dir)).toThrow(/fiis_rankings\.yaml: field 'columns\.\d+\.ranks'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
