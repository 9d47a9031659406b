import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolicyError, policiesDir } from '@cota/config';
import { loadPlanningPolicies } from './policies';

describe('loadPlanningPolicies', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cota-planning-'));
    for (const f of ['ontology.yaml', 'param_inference.yaml', 'measures.yaml']) copyFileSync(join(policiesDir(), f), join(dir, f));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const edit = (file: string, from: string | RegExp, to: string) => {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    const next = text.replace(from, to);
    expect(next).not.toBe(text);
    writeFileSync(path, next);
  };
  const failure = () => {
    try {
      loadPlanningPolicies(dir);
    } catch (e) {
      return e as Error;
    }
    throw new Error('expected the policies to be refused');
  };

  it('loads the shipped policies with every catalog entity in both files', () => {
    const { ontology, params } = loadPlanningPolicies();
    expect(ontology.entityNames()).toHaveLength(22);
    expect(Object.keys(params.spec.entities).sort()).toEqual(ontology.entityNames().sort());
  });

  it('names file and field when a threshold is invalid', () => {
    edit('ontology.yaml', /min_score: \d+/, 'min_score: -1');
    const e = failure();
    expect(e).toBeInstanceOf(PolicyError);
    expect(e.message).toMatch(/ontology\.yaml.*thresholds\.min_score/);
  });

  it('refuses a specific-word gap larger than the ordinary gap', () => {
    edit('ontology.yaml', /specific: \{min_gap: [\d.]+/, 'specific: {min_gap: 5');
    expect(failure().message).toMatch(/ontology\.yaml.*thresholds\.specific\.min_gap.*must not exceed min_gap/);
  });

  it('refuses an aggregation override for an unknown entity or an aggregation the entity does not offer', () => {
    edit('param_inference.yaml', 'entities: [fiis_dividends_yields]', 'entities: [fiis_dividends_yield]');
    expect(failure().message).toMatch(/param_inference\.yaml.*agg_overrides\.0\.entities\.0.*not an entity/);
    edit('param_inference.yaml', 'entities: [fiis_dividends_yield]', 'entities: [fiis_financials_snapshot]');
    edit('param_inference.yaml', /agg_overrides:\n  - agg: latest/, 'agg_overrides:\n  - agg: sum');
    expect(failure().message).toMatch(/param_inference\.yaml.*agg_overrides\.0\.agg.*sum is not offered by fiis_financials_snapshot/);
  });

  it('refuses a feature weight that names no declared feature', () => {
    // The first entity with this feature line in the file is fiis_cadastro.
    edit('ontology.yaml', 'features: {ticker: 1, no_ticker: -1, client_scope: -6,', 'features: {ticker: 1, no_tickr: -1, client_scope: -6,');
    expect(failure().message).toMatch(/ontology\.yaml.*entities\.fiis_cadastro\.features\.no_tickr.*not a declared feature/);
  });

  it('names file and field when a default aggregation is not offered', () => {
    edit(
      'param_inference.yaml',
      'fiis_cadastro: {ticker: *fund_or_list, agg: latest, aggs: [latest, list, count]',
      'fiis_cadastro: {ticker: *fund_or_list, agg: sum, aggs: [latest, list, count]',
    );
    const e = failure();
    expect(e).toBeInstanceOf(PolicyError);
    expect(e.message).toMatch(/param_inference\.yaml.*entities\.fiis_cadastro\.agg/);
  });

  it('refuses an entity present in only one of the two files', () => {
    edit('param_inference.yaml', /\n  fiis_imoveis: .*\n/, '\n');
    expect(failure().message).toMatch(/param_inference\.yaml lacks fiis_imoveis/);
  });

  it('refuses a broader view of an entity that does not exist', () => {
    edit('ontology.yaml', 'broader_than: [client_fiis_positions]', 'broader_than: [client_positions]');
    expect(failure().message).toMatch(/entities\.client_fiis_enriched_portfolio\.broader_than: client_positions is not another entity/);
  });

  it('refuses a tool rule said after a measure family the catalog does not have', () => {
    edit('ontology.yaml', 'after_family: sale', 'after_family: sales');
    expect(failure().message).toMatch(/after_family sales is not a family of measures.yaml/);
  });

  it('refuses broken YAML', () => {
    writeFileSync(join(dir, 'ontology.yaml'), 'version: 1\nthresholds: [');
    expect(failure().message).toMatch(/ontology\.yaml: field '\(yaml\)'/);
  });
});
