import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { loadPolicy, PolicyError } from './policy-loader';

const schema = z.object({ version: z.literal(1), limits: z.object({ max: z.number().int().positive() }) });

function dirWith(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cota-policy-'));
  writeFileSync(join(dir, `${name}.yaml`), text);
  return dir;
}

describe('loadPolicy', () => {
  it('reads a file parsed before as a copy of its own, and again once the file changes', () => {
    const loose = z.object({ version: z.literal(1), limits: z.unknown() }); // z.unknown() hands back the parsed object itself
    const dir = dirWith('p', 'version: 1\nlimits:\n  max: 3\n');
    const first = loadPolicy('p', loose, dir);
    (first.limits as Record<string, unknown>).max = 99; // callers that mutate what they got
    const second = loadPolicy('p', loose, dir);
    expect(second).toEqual({ version: 1, limits: { max: 3 } });
    (second.limits as Record<string, unknown>).max = 98;
    expect(loadPolicy('p', loose, dir)).toEqual({ version: 1, limits: { max: 3 } });
    writeFileSync(join(dir, 'p.yaml'), 'version: 1\nlimits:\n  max: 42\n');
    expect(loadPolicy('p', loose, dir)).toEqual({ version: 1, limits: { max: 42 } });
  });

  it('returns the validated policy', () => {
    expect(loadPolicy('p', schema, dirWith('p', 'version: 1\nlimits:\n  max: 3\n'))).toEqual({ version: 1, limits: { max: 3 } });
  });

  it('names the file and the field of an invalid value', () => {
    const dir = dirWith('p', 'version: 1\nlimits:\n  max: -1\n');
    expect(() => loadPolicy('p', schema, dir)).toThrow(PolicyError);
    expect(() => loadPolicy('p', schema, dir)).toThrow(/p\.yaml: field 'limits\.max'/);
  });

  it('names the file when the YAML does not parse or the file is missing', () => {
    expect(() => loadPolicy('p', schema, dirWith('p', 'version: [1\n'))).toThrow(/p\.yaml: field '\(yaml\)'/);
    expect(() => loadPolicy('absent', schema, dirWith('p', 'x: 1'))).toThrow(/absent\.yaml: field '\(file\)'/);
  });

  it('every shipped policy in policies/ that the gateway owns is valid', () => {
    expect(() => loadPolicy('quotas', z.object({ version: z.literal(1) }).passthrough())).not.toThrow();
  });
});
