import {
  formatDate,
  formatDayInBrazil,
  formatDecimal,
  formatMoney,
  formatMoneyInWords,
  formatMoneyShort,
  formatMonthShort,
  formatMonthYear,
  formatPercent,
  formatTimeInBrazil,
} from './format';
import { monthAbbreviation, monthName, monthNumber } from './months';

describe('pt-BR formatting', () => {
  it('writes decimals with a comma and dot thousands, rounding half away from zero on the decimal, never the float', () => {
    expect(formatDecimal('1234567.891', 1)).toBe('1.234.567,9');
    expect(formatDecimal(1234.5)).toBe('1.234,50');
    expect(formatDecimal(8.5, 2, true)).toBe('8,5');
    expect(formatDecimal('1.005')).toBe('1,01');
    expect(formatDecimal('-0.001')).toBe('0,00');
    expect(formatDecimal('12345678901234567.891', 2)).toBe('12.345.678.901.234.567,89');
  });

  it('writes money, large amounts in words or short, and percentages', () => {
    expect(formatMoney('12697.346485')).toBe('R$ 12.697,35');
    expect(formatMoney('-10')).toBe('-R$ 10,00');
    expect(formatMoney('0.005')).toBe('R$ 0,01');
    expect(formatMoney('-0.001')).toBe('R$ 0,00');
    expect(formatMoneyInWords('350402792.00')).toBe('R$ 350,40 milhões');
    expect(formatMoneyInWords('1000000')).toBe('R$ 1,00 milhão');
    expect(formatMoneyInWords('-2500000')).toBe('-R$ 2,50 milhões');
    expect(formatMoneyInWords('999999.99')).toBe('R$ 999.999,99');
    expect([formatMoneyShort(5406012000), formatMoneyShort(12_300_000), formatMoneyShort(52540), formatMoneyShort(390.4)]).toEqual([
      'R$ 5,41 bi',
      'R$ 12,3 mi',
      'R$ 52,5 mil',
      'R$ 390,40',
    ]);
    expect(formatPercent('9.87')).toBe('9,87%');
    expect(formatPercent(-6.245, 1)).toBe('-6,2%');
  });

  it('writes dates and months without time-zone shifts of plain dates', () => {
    expect(formatDate('2025-05-30')).toBe('30/05/2025');
    expect(formatDate('2026-11-23T03:03:10.759Z')).toBe('23/11/2026');
    expect(formatDate(new Date('2025-11-14T00:00:00Z'))).toBe('14/11/2025');
    expect(formatDate('ontem')).toBe('ontem');
    expect([formatMonthYear('2025-03-01'), formatMonthShort('2024-12'), formatMonthShort('2024-13')]).toEqual(['março de 2025', 'dez/2024', '2024-13']);
    expect(formatDayInBrazil(new Date('2026-11-23T02:00:00Z'))).toBe('22/11/2026');
    expect(formatTimeInBrazil(new Date('2026-11-23T12:58:00Z'))).toBe('23/11/2026, 09:58');
  });

  it('names months from one list: names, abbreviations and the month a word stands for', () => {
    expect([monthName(3), monthAbbreviation(3), monthName(13)]).toEqual(['março', 'mar', undefined]);
    expect([monthNumber('Março'), monthNumber('marco'), monthNumber('dez'), monthNumber('hoje')]).toEqual([3, 3, 12, 0]);
  });
});
