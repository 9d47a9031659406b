import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolicyError, policiesDir } from '@cota/config';
import { parse, stringify } from 'yaml';
import { entitiesOfClass, loadEntityClasses } from '@cota/catalog';
import { loadContextPolicy, scopeAllowsEntity } from './context-policy';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- YAML documents are mutated freely to build bad files
type Doc = any;
const shipped = (): Doc => parse(readFileSync(join(policiesDir(), 'context.yaml'), 'utf8'));

/** Writes a variant of the shipped file to a temp folder and loads it. */
function loadVariant(mutate: (doc: Doc) => void): unknown {
  const dir = mkdtempSync(join(tmpdir(), 'cota-ctx-policy-'));
  try {
    const doc = shipped();
    mutate(doc);
    writeFileSync(join(dir, 'context.yaml'), stringify(doc));
    cpSync(join(policiesDir(), 'entities'), join(dir, 'entities'), { recursive: true });
    return loadContextPolicy(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function policyError(mutate: (doc: Doc) => void): PolicyError {
  try {
    loadVariant(mutate);
  } catch (e) {
    expect(e).toBeInstanceOf(PolicyError);
    return e as PolicyError;
  }
  throw new Error('expected the policy to be rejected');
}

describe('context policy', () => {
  it('ships the contract defaults: max_age_turns 3 and every fund entity allowed', () => {
    const p = loadContextPolicy();
    expect(p.enabled).toBe(true);
    expect(p.last_reference.enable_last_ticker).toBe(true);
    expect(p.last_reference.max_age_turns).toBe(3);
    expect([...p.last_reference.allowed_entities].sort()).toEqual(entitiesOfClass(loadEntityClasses(), 'fund').sort());
  });

  it.each(['history_currency_rates', 'history_b3_indexes', 'macro_consolidada', 'client_fiis_positions'])(
    'refuses %s in last_reference.allowed_entities, naming file and field',
    (entity) => {
      const e = policyError((d) => d.context.last_reference.allowed_entities.push(entity));
      expect(e.file).toMatch(/context\.yaml$/);
      expect(e.field).toMatch(/^context\.last_reference\.allowed_entities\.\d+$/);
      expect(e.message).toContain(entity);
    },
  );

  it('refuses an entity that is not in the catalog', () => {
    const e = policyError((d) => d.context.last_reference.allowed_entities.push('fiis_inexistente'));
    expect(e.field).toBe('context.last_reference.allowed_entities.13');
  });

  it('refuses a missing field instead of defaulting it', () => {
    const e = policyError((d) => delete d.context.last_reference.max_age_turns);
    expect(e.field).toBe('context.last_reference.max_age_turns');
  });

  it('refuses a wrong type and an unknown field', () => {
    expect(policyError((d) => (d.context.enabled = 'sim')).field).toBe('context.enabled');
    expect(policyError((d) => (d.context.narrator.max_chrs = 10)).field).toBe('context.narrator');
  });

  it('refuses a compression target that could not shrink the summary', () => {
    expect(policyError((d) => (d.context.memory.compress_target_words = 5000)).field).toBe('context.memory.compress_target_words');
  });

  it('applies allowed/denied lists of a scope', () => {
    const scope = { enabled: true, max_turns: 2, allowed_entities: [], denied_entities: ['client_fiis_positions'] };
    expect(scopeAllowsEntity(scope, 'fiis_precos')).toBe(true);
    expect(scopeAllowsEntity(scope, 'client_fiis_positions')).toBe(false);
    expect(scopeAllowsEntity(scope, null)).toBe(false);
    expect(scopeAllowsEntity({ ...scope, allowed_entities: ['fiis_precos'] }, 'fiis_cadastro')).toBe(false);
    expect(scopeAllowsEntity({ ...scope, enabled: false }, 'fiis_precos')).toBe(false);
  });
});
