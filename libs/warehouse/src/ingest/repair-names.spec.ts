import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '@cota/config';
import { accentVocabulary, repairStrippedAccents } from './repair-names';

describe('accent repair of araquem fund names', () => {
  const vocab = accentVocabulary(['KINEA RENDA IMOBILIÁRIA FDO INV IMOB - FII', 'KINEA ÍNDICES DE PREÇOS FII', 'Suno Logística', 'Edifício Almirante Barroso', 'é']);

  it('restores stripped words in the damaged word casing', () => {
    expect(repairStrippedAccents('Kinea Renda Imobiliria Fundo Investimento Imobiliario FII', vocab)).toBe('Kinea Renda Imobiliária Fundo Investimento Imobiliario FII');
    expect(repairStrippedAccents('Kinea Ndices De Preos Fundo Investimento Imobiliario FII', vocab)).toBe('Kinea Índices De Preços Fundo Investimento Imobiliario FII');
    expect(repairStrippedAccents('SUNO LOGSTICA', vocab)).toBe('SUNO LOGÍSTICA');
    expect(repairStrippedAccents('Fundo Investimento Imobiliario FII Edifcio Almirante Barroso', vocab)).toBe('Fundo Investimento Imobiliario FII Edifício Almirante Barroso');
  });

  it('leaves correct and unknown words alone', () => {
    expect(repairStrippedAccents('Pátria Log Fundo', vocab)).toBe('Pátria Log Fundo');
    expect(repairStrippedAccents('Maxi Renda', vocab)).toBe('Maxi Renda');
  });

  it('with the real B3 list (read in place), KNRI11 gets its accent back', () => {
    const b3 = readFileSync(join(dataDir(), 'cvm', 'fundosListados.csv'), 'utf8')
      .split('\n')
      .map((l) => l.split(';')[0]);
    expect(repairStrippedAccents('Kinea Renda Imobiliria Fundo Investimento Imobiliario FII', accentVocabulary(b3))).toContain('Imobiliária');
  });
});
