import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPolicy, policiesDir, PolicyError } from '@cota/config';
import { bulkheadLimits, DEFAULT_FABRIC, FabricPolicy } from './fabric-policy';

/** A copy of the shipped policies with fabric.yaml edited. */
function withFabric(edit: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cota-fabric-'));
  cpSync(policiesDir(), dir, { recursive: true });
  writeFileSync(join(dir, 'fabric.yaml'), edit(readFileSync(join(dir, 'fabric.yaml'), 'utf8')));
  return dir;
}

describe('policies/fabric.yaml', () => {
  it('is valid as shipped, and the built-in defaults match its defaults', () => {
    const shipped = loadPolicy('fabric', FabricPolicy);
    expect(shipped.bulkhead.default).toEqual(DEFAULT_FABRIC.bulkhead.default);
    expect(shipped.bulkhead.retry_after_s).toBe(DEFAULT_FABRIC.bulkhead.retry_after_s);
    expect(shipped.client).toEqual(DEFAULT_FABRIC.client);
    expect(bulkheadLimits(shipped, 'cota.executor.query.v1')).toEqual({ max_concurrent: 8, max_queue: 128 });
    expect(bulkheadLimits(shipped, 'cota.planner.plan.v1')).toEqual(shipped.bulkhead.default);
  });

  it.each([
    ['a non-positive concurrency', (t: string) => t.replace('max_concurrent: 32', 'max_concurrent: 0'), 'bulkhead.default.max_concurrent'],
    ['a negative queue', (t: string) => t.replace('max_queue: 128\n  subjects', 'max_queue: -1\n  subjects'), 'bulkhead.default.max_queue'],
    ['an unknown subject', (t: string) => t.replace('cota.executor.query.v1:', 'cota.executor.qurey.v1:'), 'bulkhead.subjects.cota.executor.qurey.v1'],
    ['a misspelt key', (t: string) => t.replace('max_queue: 64', 'max_qeue: 64'), 'bulkhead.subjects.cota.narrator.narrate.v1.max_queue'],
    ['an unknown caller', (t: string) => t.replace('callers: [gateway]', 'callers: [gatway]'), 'client.callers.0'],
    ['a retry delay cap below its start', (t: string) => t.replace('max_delay_ms: 200', 'max_delay_ms: 10'), 'client.retry.max_delay_ms'],
    ['a must-land delay cap below its start', (t: string) => t.replace('max_delay_ms: 1000', 'max_delay_ms: 10'), 'client.must_land.max_delay_ms'],
    ['a negative must-land reserve', (t: string) => t.replace('reserve_ms: 500', 'reserve_ms: -1'), 'client.must_land.reserve_ms'],
  ])('stops the start on %s, naming the file and the field', (_label, edit, field) => {
    const dir = withFabric(edit);
    expect(() => loadPolicy('fabric', FabricPolicy, dir)).toThrow(PolicyError);
    expect(() => loadPolicy('fabric', FabricPolicy, dir)).toThrow(`fabric.yaml: field '${field}'`);
  });
});
