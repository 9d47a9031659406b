import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { policiesDir, PolicyError } from '@cota/config';
import { loadCatalogColumns } from './catalog-columns';
import { createNarrator } from './narrator';
import { loadNarratorPolicy } from './policy';
import { loadTemplates, validateTemplates } from './templates';

/** narrator.yaml and the templates are validated at start-up; a bad file names file and field. */

const CONTRACT_ENTITIES = [
  'fiis_cadastro',
  'fiis_precos',
  'fiis_dividendos',
  'fiis_yield_history',
  'fiis_dividends_yields',
  'fiis_financials_snapshot',
  'fiis_financials_revenue_schedule',
  'fiis_financials_risk',
  'fiis_imoveis',
  'fiis_noticias',
  'fiis_processos',
  'fii_overview',
  'fiis_rankings',
  'history_b3_indexes',
  'history_currency_rates',
  'history_market_indicators',
  'macro_consolidada',
  'client_fiis_positions',
  'client_fiis_enriched_portfolio',
  'client_fiis_dividends_evolution',
  'client_fiis_performance_vs_benchmark',
  'client_fiis_performance_vs_benchmark_summary',
];

describe('shipped policy and templates', () => {
  it('load, and there is one template per catalog entity', () => {
    const policy = loadNarratorPolicy();
    expect(policy.llm.timeout_ms).toBeGreaterThan(0);
    expect(Object.keys(loadTemplates()).sort()).toEqual([...CONTRACT_ENTITIES].sort());
  });

  it('name only columns the entity catalog has', () => {
    const catalog = loadCatalogColumns();
    expect(catalog).not.toBeNull();
    expect(() => validateTemplates(loadTemplates(), catalog!, { requireAll: true })).not.toThrow();
  });

  it('keep client entities away from the model', () => {
    const policy = loadNarratorPolicy();
    expect(policy.llm.entities.filter((e) => e.startsWith('client_'))).toEqual([]);
  });
});

describe('bad files stop start-up naming file and field', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cota-narrator-policies-'));
    cpSync(join(policiesDir(), 'narrator.yaml'), join(dir, 'narrator.yaml'));
    cpSync(join(policiesDir(), 'templates'), join(dir, 'templates'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const edit = (file: string, from: string | RegExp, to: string) => {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    const next = text.replace(from, to);
    expect(next).not.toBe(text);
    writeFileSync(path, next);
  };

  it('a wrong type in narrator.yaml', () => {
    edit('narrator.yaml', /timeout_ms: \d+/, 'timeout_ms: soon');
    expect(() => loadNarratorPolicy(dir)).toThrow(PolicyError);
    expect(() => loadNarratorPolicy(dir)).toThrow(/narrator\.yaml: field 'llm\.timeout_ms'/);
  });

  it('an unknown entity in the allow list', () => {
    edit('narrator.yaml', '    - fiis_cadastro\n', '    - fiis_cadastr0\n');
    expect(() => createNarrator({ policiesDir: dir, llm: null })).toThrow(/field 'llm\.entities\.0'/);
  });

  it('a broken optional segment in a message', () => {
    edit('narrator.yaml', 'source_line: "Fonte: {sources}, dados até {as_of}."', 'source_line: "Fonte: {sources}[, dados até {as_of}."');
    expect(() => createNarrator({ policiesDir: dir, llm: null })).toThrow(/field 'messages\.source_line'/);
  });

  it('a template naming a column the entity does not have', () => {
    edit('templates/fiis_dividendos.yaml', '{dividend_amt} por cota[, com data-com', '{dividend_value} por cota[, com data-com');
    const catalog = loadCatalogColumns()!;
    expect(() => createNarrator({ policiesDir: dir, llm: null, catalog })).toThrow(/templates\/fiis_dividendos\.yaml: field 'one_row\.sentences\.0' names column 'dividend_value'/);
  });

  it('a template whose entity is not its file name', () => {
    edit('templates/fiis_precos.yaml', 'entity: fiis_precos', 'entity: fiis_preco');
    expect(() => loadTemplates(dir)).toThrow(/fiis_precos\.yaml: field 'entity'/);
  });

  it('a template missing a required part', () => {
    edit('templates/fiis_imoveis.yaml', /many_rows:[\s\S]*?columns: \[[^\]]*\]\n/, '');
    expect(() => loadTemplates(dir)).toThrow(/fiis_imoveis\.yaml: field 'many_rows'/);
  });
});
