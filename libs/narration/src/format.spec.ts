import {
  formatBoolean,
  formatCnpj,
  formatDate,
  formatDateTime,
  formatInteger,
  formatMoney,
  formatMonth,
  formatNumber,
  formatPercent,
  formatRatio,
  formatValue,
  MISSING,
  formatMoneyCompact,
  displayLabel,
} from './format';

describe('pt-BR formatters', () => {
  it('formats money the Brazilian way, from numbers and numeric text', () => {
    expect(formatMoney(1234.5)).toBe('R$ 1.234,50');
    expect(formatMoney('0.65')).toBe('R$ 0,65');
    expect(formatMoney('350402792.00')).toBe('R$ 350.402.792,00');
    expect(formatMoney('-12.345')).toBe('-R$ 12,35');
    expect(formatMoney('1.005')).toBe('R$ 1,01'); // decimal rounding, not float rounding
    expect(formatMoney('-0.001')).toBe('R$ 0,00');
  });

  it('formats percent values and fractions', () => {
    expect(formatPercent('9.87')).toBe('9,87%');
    expect(formatPercent(14.9)).toBe('14,90%');
    expect(formatRatio('0.0131')).toBe('1,31%');
    expect(formatRatio('0.00866782237631684225')).toBe('0,87%');
    expect(formatRatio(-0.0624)).toBe('-6,24%');
  });

  it('formats plain numbers and integers', () => {
    expect(formatNumber('3617')).toBe('3.617');
    expect(formatNumber('0.6960')).toBe('0,70');
    expect(formatNumber('0.0089')).toBe('0,0089');
    expect(formatNumber('-0.7754')).toBe('-0,78');
    expect(formatInteger('4709082')).toBe('4.709.082');
    expect(formatInteger(1234567.6)).toBe('1.234.568');
  });

  it('formats dates as dd/mm/aaaa without time-zone shifts', () => {
    expect(formatDate('2025-10-31')).toBe('31/10/2025');
    expect(formatDate('2025-10-31 00:00:00')).toBe('31/10/2025');
    expect(formatDate('2025-01-01T00:00:00')).toBe('01/01/2025');
    expect(formatDate(new Date('2025-11-14T00:00:00Z'))).toBe('14/11/2025');
    expect(formatDateTime('2025-11-14T13:05:00')).toBe('14/11/2025 13:05');
    expect(formatDateTime('2025-11-14T00:00:00')).toBe('14/11/2025');
    expect(formatMonth('2025-03-01')).toBe('março de 2025');
  });

  it('masks CNPJs', () => {
    expect(formatCnpj('11728688000147')).toBe('11.728.688/0001-47');
    expect(formatCnpj('11.728.688/0001-47')).toBe('11.728.688/0001-47');
    expect(formatCnpj('1728688000147')).toBe('01.728.688/0001-47');
  });

  it('formats booleans and missing values', () => {
    expect(formatBoolean(false)).toBe('não');
    expect(formatBoolean('True')).toBe('sim');
    expect(formatMoney(null)).toBe(MISSING);
    expect(formatPercent('NULL')).toBe(MISSING);
    expect(formatDate('')).toBe(MISSING);
  });

  it('dispatches on the catalog column type', () => {
    expect(formatValue('0.0131', 'ratio')).toBe('1,31%');
    expect(formatValue('9.87', 'percent')).toBe('9,87%');
    expect(formatValue('0.92', 'money')).toBe('R$ 0,92');
    expect(formatValue('2010-05-03', 'date')).toBe('03/05/2010');
    expect(formatValue('11728688000147', 'cnpj')).toBe('11.728.688/0001-47');
    expect(formatValue('  Banco   Genial ', 'text')).toBe('Banco Genial');
  });
});

describe('compact money and labels', () => {
  it('says large amounts in millions and billions', () => {
    expect(formatMoneyCompact('350402792.00')).toBe('R$ 350,40 milhões');
    expect(formatMoneyCompact('6387056178')).toBe('R$ 6,39 bilhões');
    expect(formatMoneyCompact('1000000')).toBe('R$ 1,00 milhão');
    expect(formatMoneyCompact('-2500000')).toBe('-R$ 2,50 milhões');
    expect(formatMoneyCompact('999999.99')).toBe('R$ 999.999,99');
  });

  it('drops unit notes the value already shows', () => {
    expect(displayLabel('Dividendo por cota (R$)')).toBe('Dividendo por cota');
    expect(displayLabel('DY mensal (%)')).toBe('DY mensal');
    expect(displayLabel('Alavancagem (passivo/ativo, fração)')).toBe('Alavancagem');
    expect(displayLabel('Vacância (fração: 0,05 = 5%)')).toBe('Vacância');
    expect(displayLabel('SELIC (% a.a.)')).toBe('SELIC (% a.a.)');
    expect(displayLabel('Área (m²)')).toBe('Área (m²)');
  });
});
