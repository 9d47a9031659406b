import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { policiesDir, PolicyError } from '@cota/config';
import { gateIntent, isRagEnabled, loadRagPolicy, RagPolicy, resolveRule } from './policy';

describe('rag policy', () => {
  const policy = loadRagPolicy();

  it('allows the textual intents of the task', () => {
    for (const intent of ['concept', 'fiis_noticias', 'fiis_financials_risk', 'history_market_indicators', 'history_b3_indexes', 'history_currency_rates']) {
      expect(isRagEnabled(policy, intent)).toBe(true);
    }
  });

  it('denies tabular and client intents', () => {
    for (const intent of ['fiis_cadastro', 'fiis_precos', 'fiis_dividendos', 'fiis_rankings', 'fiis_processos', 'client_fiis_positions']) {
      expect(gateIntent(policy, intent)).toEqual({ enabled: false, reason: 'intent_denied' });
    }
  });

  it('turns off intents in neither list', () => {
    expect(gateIntent(policy, 'smalltalk')).toEqual({ enabled: false, reason: 'intent_not_allowed' });
  });

  it('lets deny win over allow', () => {
    const both: RagPolicy = { ...policy, routing: { allow_intents: ['fiis_noticias'], deny_intents: ['fiis_noticias'] } };
    expect(gateIntent(both, 'fiis_noticias')).toEqual({ enabled: false, reason: 'intent_denied' });
  });

  it('resolves the entity rule with its profile', () => {
    expect(resolveRule(policy, 'fiis_financials_risk', 'fiis_financials_risk')).toEqual({
      rule: 'rag.entities.fiis_financials_risk',
      profile: 'risk',
      collections: ['concepts-risk', 'concepts-fiis'],
      k: 6,
      max_chunks: 5,
      min_score: policy.profiles.risk.min_score,
      max_context_chars: policy.profiles.risk.max_context_chars,
    });
  });

  it('falls back to the intent rule, then to rag.default with its own min_score', () => {
    expect(resolveRule(policy, null, 'concept').rule).toBe('rag.entities.concept');
    const d = resolveRule(policy, 'fii_overview', 'fii_overview');
    expect(d.rule).toBe('rag.default');
    expect(d.min_score).toBe(0.25);
    expect(d.profile).toBe('default');
  });

  describe('a bad file stops start-up naming file and field', () => {
    const original = readFileSync(join(policiesDir(), 'rag.yaml'), 'utf8');
    const write = (text: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'rag-policy-'));
      writeFileSync(join(dir, 'rag.yaml'), text);
      return dir;
    };

    it('rejects an out-of-range value', () => {
      const dir = write(original.replace('default: { k: 6,', 'default: { k: 0,'));
      expect(() => loadRagPolicy(dir)).toThrow(PolicyError);
      expect(() => loadRagPolicy(dir)).toThrow(/rag\.yaml: field 'profiles\.default\.k'/);
    });

    it('rejects a rule naming an unknown profile', () => {
      const dir = write(original.replace('fiis_financials_risk: { profile: risk,', 'fiis_financials_risk: { profile: riskk,'));
      expect(() => loadRagPolicy(dir)).toThrow(/field 'rag\.entities\.fiis_financials_risk\.profile' names profile 'riskk'/);
    });

    it('rejects an unknown collection and unknown keys', () => {
      expect(() => loadRagPolicy(write(original.replace('collections: [concepts-macro]', 'collections: [concepts-macr]')))).toThrow(/collections\.0/);
      expect(() => loadRagPolicy(write(original + '\nsurprise: 1\n'))).toThrow(/Unrecognized key/);
    });

    it('rejects weights that do not add up', () => {
      expect(() => loadRagPolicy(write(original.replace('lexical_weight: 0.5', 'lexical_weight: 0.6')))).toThrow(/field 'hybrid'/);
    });
  });
});
