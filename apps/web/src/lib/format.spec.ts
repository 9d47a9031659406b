import { formatAxisLabel, formatBRL, formatBRLCompact, formatDate, formatMonth, formatMonthLong, formatMs, formatNumber, formatPct, formatTick, formatValue } from './format';

describe('pt-BR formatting', () => {
  it('writes numbers with a decimal comma and dot thousands', () => {
    expect(formatNumber(1234.5)).toBe('1.234,50');
    expect(formatNumber(1234567.891, 1)).toBe('1.234.567,9');
    expect(formatNumber(8.5, 2, true)).toBe('8,5');
    expect(formatNumber(-0.001)).toBe('0,00');
    expect(formatNumber(Number.NaN)).toBe('—');
  });

  it('writes R$ amounts the Brazilian way', () => {
    expect(formatBRL(1.1)).toBe('R$ 1,10');
    expect(formatBRL(18912)).toBe('R$ 18.912,00');
    expect(formatBRL(-3)).toBe('-R$ 3,00');
    expect(formatBRLCompact(5406012000)).toBe('R$ 5,41 bi');
    expect(formatBRLCompact(12_300_000)).toBe('R$ 12,3 mi');
    expect(formatBRLCompact(52540)).toBe('R$ 52,5 mil');
    expect(formatBRLCompact(390.4)).toBe('R$ 390,40');
  });

  it('writes percentages, points, counts and ratios with their unit', () => {
    expect(formatPct(8.25)).toBe('8,25%');
    expect(formatValue('pct', 36)).toBe('36,00%');
    expect(formatValue('pct_month', 0.52)).toBe('0,52% ao mês');
    expect(formatValue('pct_year', 12.15)).toBe('12,15% ao ano');
    expect(formatValue('points', 3755.15)).toBe('3.755,15 pontos');
    expect(formatValue('count', 441076)).toBe('441.076');
    expect(formatValue('ratio', 0.986)).toBe('0,99');
    expect(formatValue('brl', null)).toBe('—');
  });

  it('writes dates as dd/mm/aaaa and months as mmm/aaaa', () => {
    expect(formatDate('2025-05-30')).toBe('30/05/2025');
    expect(formatDate('2026-11-23T03:03:10.759Z')).toBe('23/11/2026');
    expect(formatDate('ontem')).toBe('ontem');
    expect(formatMonth('2024-05-31')).toBe('mai/2024');
    expect(formatMonth('2024-12')).toBe('dez/2024');
    expect(formatMonthLong('2025-03-01')).toBe('março de 2025');
  });

  it('keeps axis ticks short', () => {
    expect(formatTick('brl', 150)).toBe('R$ 150');
    expect(formatTick('brl', 1.1)).toBe('R$ 1,10');
    expect(formatTick('brl', 1, true)).toBe('R$ 1,00');
    expect(formatTick('brl', 2_500_000)).toBe('R$ 2,5 mi');
    expect(formatTick('pct', 8.5)).toBe('8,5%');
    expect(formatTick('pct_year', 12)).toBe('12%');
    expect(formatTick('points', 3100)).toBe('3.100');
    expect(formatAxisLabel('date', '2024-01-02')).toBe('02/01/2024');
    expect(formatAxisLabel('month', '2024-01')).toBe('jan/2024');
    expect(formatAxisLabel('category', 'HGLG11')).toBe('HGLG11');
  });

  it('writes step timings', () => {
    expect(formatMs(12.05)).toBe('12 ms');
    expect(formatMs(3.47)).toBe('3,5 ms');
    expect(formatMs(1340)).toBe('1,3 s');
  });
});
