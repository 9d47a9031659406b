import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolicyError, policiesDir } from '@cota/config';
import { loadMeasureCatalog } from './measures';

/** Loads measures.yaml after `edit` rewrote its text, from a temporary copy. */
function loadEdited(edit: (text: string) => string) {
  const dir = mkdtempSync(join(tmpdir(), 'cota-measures-'));
  try {
    cpSync(join(policiesDir(), 'measures.yaml'), join(dir, 'measures.yaml'));
    const file = join(dir, 'measures.yaml');
    writeFileSync(file, edit(readFileSync(file, 'utf8')));
    return loadMeasureCatalog(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('measure catalog vocabulary', () => {
  const catalog = loadMeasureCatalog();

  it('names every measure as an answer says it, with its article, and says which value is better', () => {
    expect(catalog.measures.pvp).toMatchObject({ answer_name: 'o P/VP', better: 'lower' });
    expect(catalog.measures.dy).toMatchObject({ answer_name: 'o dividend yield', better: 'higher' });
    expect(catalog.measures.price.better).toBe('none');
    expect(catalog.measures.dividend.row_noun).toEqual({ one: 'pagamento', many: 'pagamentos' });
    expect(catalog.measures.price.row_noun).toBeUndefined();
  });

  it('refuses a measure without its direction, naming file and field', () => {
    const load = () => loadEdited((t) => t.replace(/(  sharpe:\n(?:    .*\n)*?)    better: higher\n/, '$1'));
    expect(load).toThrow(PolicyError);
    expect(load).toThrow(/measures\.yaml: field 'measures\.sharpe\.better'/);
  });

  it('refuses an answer name without its article', () => {
    expect(() => loadEdited((t) => t.replace('answer_name: o P/VP', 'answer_name: P/VP'))).toThrow(/field 'measures\.pvp\.answer_name'/);
  });
});
