import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolicyError, policiesDir } from '@cota/config';
import { loadAlertCatalog } from './alerts';

/** policies/alerts.yaml with one edit, loaded from a copy. */
function loadEdited(edit: (text: string) => string) {
  const dir = mkdtempSync(join(tmpdir(), 'cota-alerts-'));
  try {
    writeFileSync(join(dir, 'alerts.yaml'), edit(readFileSync(join(policiesDir(), 'alerts.yaml'), 'utf8')));
    return loadAlertCatalog(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the alerts catalog (policies/alerts.yaml)', () => {
  it('declares every kind, in the order the chat reads them, and the measures with their series', () => {
    const c = loadAlertCatalog();
    expect(c.kinds.map((k) => k.id)).toEqual(['move', 'level', 'monthly_report', 'distribution']);
    expect(c.measure('ifix')).toMatchObject({ scope: 'market', observe: 'index', series: 'IFIX', daily_move: true });
    expect(c.measureByArg('preco')?.id).toBe('price');
    expect(c.kindByArg('informe')?.id).toBe('monthly_report');
  });

  it('stops on a bad file, naming the field', () => {
    expect(() => loadEdited((t) => t.replace('observe: dy_12m', 'observe: dy_hoje'))).toThrow(PolicyError);
    expect(() => loadEdited((t) => t.replace('observe: dy_12m', 'observe: dy_hoje'))).toThrow(/alerts\.yaml: field 'measures\.dy\.observe'/);
    // A daily move needs a series that knows the day before.
    expect(() => loadEdited((t) => t.replace('    observe: dy_12m\n', '    observe: dy_12m\n    daily_move: true\n'))).toThrow(/field 'measures\.dy\.daily_move'/);
    expect(() => loadEdited((t) => t.replace('    series: SELIC\n', ''))).toThrow(/field 'measures\.selic\.series'/);
    expect(() => loadEdited((t) => t.replace('arg: pvp', 'arg: dy'))).toThrow(/field 'measures\.pvp\.arg'/);
  });
});
