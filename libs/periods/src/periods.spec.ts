import { isCalendarPeriod, isPast, withinOneMonth } from './kinds';
import { describePeriod } from './label';
import { parsePeriod } from './parse';
import { resolvePeriod } from './resolve';
import { shiftPeriod } from './shift';
import { todayInBrazil } from './today';
import { trailingMonths } from './resolve';

const spec = (q: string) => parsePeriod(q)?.spec ?? null;
const range = (from: string, to: string, grain: string) => ({ kind: 'range', from, to, grain });

describe('pt-BR period grammar', () => {
  it.each([
    ['preço do XPML11 em março de 2024', range('2024-03-01', '2024-03-31', 'month')],
    ['dividendos mar/24', range('2024-03-01', '2024-03-31', 'month')],
    ['cotação em 03/2024', range('2024-03-01', '2024-03-31', 'month')],
    ['ifix entre junho e setembro de 2023', range('2023-06-01', '2023-09-30', 'custom')],
    ['de janeiro a junho de 2025', range('2025-01-01', '2025-06-30', 'custom')],
    ['cdi jan a jun 2023 acumulado', range('2023-01-01', '2023-06-30', 'custom')],
    ['ipca janeiro-março de 2025', range('2025-01-01', '2025-03-31', 'custom')],
    ['de nov a fev 2024', range('2023-11-01', '2024-02-29', 'custom')],
    ['e de knhy11 de jan a mai 25?', range('2025-01-01', '2025-05-31', 'custom')],
    ['de novembro de 2023 a fevereiro de 2024', range('2023-11-01', '2024-02-29', 'custom')],
    ['cresceu quanto de dez/22 pra dez/23', range('2022-12-01', '2023-12-31', 'custom')],
    ['subiu do fechamento de 9/6/2025 pro de 25/6/2025', range('2025-06-09', '2025-06-25', 'days')],
    ['quanto variou do fechamento de 09/06/2025 ao de 25/06/2025?', range('2025-06-09', '2025-06-25', 'days')],
    ['de 28/12/2023 ate o fechamento de 30/12/2024', range('2023-12-28', '2024-12-30', 'days')],
    ['no 1º trimestre de 2023', range('2023-01-01', '2023-03-31', 'quarter')],
    ['no 3º tri de 2023', range('2023-07-01', '2023-09-30', 'quarter')],
    ['no segundo semestre de 2024', range('2024-07-01', '2024-12-31', 'semester')],
    ['quanto pagou no último trimestre de 2024?', range('2024-10-01', '2024-12-31', 'quarter')],
    ['no ultimo semestre de 2023', range('2023-07-01', '2023-12-31', 'semester')],
    ['no último mês de 2022', range('2022-12-01', '2022-12-31', 'month')],
    ['em 13/06/2025', range('2025-06-13', '2025-06-13', 'day')],
    ['13 de junho de 2025', range('2025-06-13', '2025-06-13', 'day')],
    ['menor fechamento entre 9 e 13 de junho de 2025', range('2025-06-09', '2025-06-13', 'days')],
    ['nesse mesmo periodo de 9 a 25/06/2025?', range('2025-06-09', '2025-06-25', 'days')],
    ['do dia 2 ao dia 6 de jun/25', range('2025-06-02', '2025-06-06', 'days')],
    ['de 30/05 a 13/06/2025', range('2025-05-30', '2025-06-13', 'days')],
    ['de 20/12 a 10/01/2025', range('2024-12-20', '2025-01-10', 'days')],
    ['dividendos do HGLG11 em 2024', range('2024-01-01', '2024-12-31', 'year')],
    ['entre 2020 e 2022', range('2020-01-01', '2022-12-31', 'custom')],
    ['inflação (ipca) de 2020 no ano todo', range('2020-01-01', '2020-12-31', 'year')],
    ['ipca acumulado em 12 meses até outubro de 2022', range('2021-11-01', '2022-10-31', 'custom')],
    ['igp-m nos últimos 6 meses até mar/24', range('2023-10-01', '2024-03-31', 'custom')],
    ['cdi em 2 anos encerrados em 06/2024', range('2022-07-01', '2024-06-30', 'custom')],
    ['qto o knuq11 distribuiu no 2s24?', range('2024-07-01', '2024-12-31', 'semester')],
    ['ipca 12m ate ago/2025', range('2024-09-01', '2025-08-31', 'custom')],
    ['preco de fechamento do rbva11 em jun 2021', range('2021-06-01', '2021-06-30', 'month')],
    ['dividendos de set 2024', range('2024-09-01', '2024-09-30', 'month')],
    // months listed one after the other are one stretch
    ['somando jan, fev e mar de 2025, quanto distribuiu por cota?', range('2025-01-01', '2025-03-31', 'custom')],
  ])('%s', (q, expected) => expect(spec(q)).toEqual(expected));

  it.each([
    ['este ano', { kind: 'relative_year', offset: 0, to_date: true }],
    ['ano passado', { kind: 'relative_year', offset: -1, to_date: false }],
    ['qual foi o ipca de setembro do ano passado?', { kind: 'relative_year', offset: -1, to_date: false, month: 9 }],
    ['dy em mar do ano retrasado', { kind: 'relative_year', offset: -2, to_date: false, month: 3 }],
    ['nos últimos 6 meses', { kind: 'trailing', unit: 'month', n: 6 }],
    ['últimos doze meses', { kind: 'trailing', unit: 'month', n: 12 }],
    ['IPCA acumulado em 12 meses', { kind: 'trailing', unit: 'month', n: 12 }],
    ['nos últimos 30 dias', { kind: 'trailing', unit: 'day', n: 30 }],
    ['desde 2020', { kind: 'since', from: '2020-01-01' }],
    ['desde março de 2021', { kind: 'since', from: '2021-03-01' }],
    ['quanto o BIME11 ja pagou desde maio/25?', { kind: 'since', from: '2025-05-01' }],
    ['ontem', { kind: 'previous_session' }],
    ['hoje', { kind: 'latest' }],
    ['e no dia 20?', { kind: 'day_of_month', day: 20, month: null }],
    ['e em 10/06?', { kind: 'day_of_month', day: 10, month: 6 }],
    ['e no dia 10/06?', { kind: 'day_of_month', day: 10, month: 6 }],
    ['e no acumulado do ano até 31/10/2025?', { kind: 'range', from: '2025-01-01', to: '2025-10-31', grain: 'custom' }],
    ['de janeiro até 31/10/2025', { kind: 'range', from: '2025-01-01', to: '2025-10-31', grain: 'custom' }],
    ['quanto variou? (de 10/06 até 25/06)', { kind: 'day_of_month', day: 10, month: 6, to: { day: 25, month: 6 } }],
    ['entre 20/12 e 10/01', { kind: 'day_of_month', day: 20, month: 12, to: { day: 10, month: 1 } }],
    ['e o ifix, ta em quanto', { kind: 'latest' }],
    ['qual o ultimo fechamento dele', { kind: 'latest' }],
    ['quanto esta valendo a cota', { kind: 'latest' }],
    ['há um ano', { kind: 'ago', unit: 'year', n: 1 }],
    ['e em abril?', { kind: 'months_of_year', from_month: 4, to_month: 4 }],
    ['e em abril e maio?', { kind: 'months_of_year', from_month: 4, to_month: 5 }],
    ['e novembro?', { kind: 'months_of_year', from_month: 11, to_month: 11 }],
    ['no fim do ano', { kind: 'months_of_year', from_month: 12, to_month: 12 }],
    ['e o acumulado do ano ate setembro?', { kind: 'months_of_year', from_month: 1, to_month: 9 }],
    ['e qual foi o ponto mais baixo dele nesse ano?', { kind: 'months_of_year', from_month: 1, to_month: 12 }],
    ['e a minima daquele ano?', { kind: 'months_of_year', from_month: 1, to_month: 12 }],
    ['naquele ano', { kind: 'months_of_year', from_month: 1, to_month: 12 }],
    ['no 1º trimestre', { kind: 'months_of_year', from_month: 1, to_month: 3 }],
  ])('%s', (q, expected) => expect(spec(q)).toEqual(expected));

  it('leaves fund tickers and amounts alone', () => {
    expect(parsePeriod('CNPJ do HGLG11?')).toBeNull();
    expect(parsePeriod('quanto rende R$ 2.000 no KNRI11')).toBeNull();
    // Nor a month and year ("12/2024"), a full date, a day of a named month, or a fraction-like pair beyond a calendar day.
    expect(parsePeriod('ifix em 12/2024')?.spec.kind).toBe('range');
    expect(parsePeriod('fechamento em 10/06/2025')?.spec).toMatchObject({ kind: 'range', from: '2025-06-10' });
    expect(parsePeriod('no dia 10 de junho de 2025')?.spec).toMatchObject({ kind: 'range', from: '2025-06-10' });
    expect(parsePeriod('proporcao 45/50')).toBeNull();
  });
});

describe('periods next to the conversation\'s ("e no mês seguinte?")', () => {
  it.each([
    ['e no mês seguinte?', { unit: 'month', offset: 1 }, { kind: 'latest' }],
    ['e o trimestre anterior?', { unit: 'quarter', offset: -1 }, { kind: 'trailing', unit: 'month', n: 3 }],
    ['e no próximo semestre?', { unit: 'semester', offset: 1 }, { kind: 'latest' }],
    ['e no dia seguinte?', { unit: 'day', offset: 1 }, { kind: 'latest' }],
    ['dia anterior', { unit: 'day', offset: -1 }, { kind: 'previous_session' }],
    ['no ano anterior', { unit: 'year', offset: -1 }, { kind: 'relative_year', offset: -1, to_date: false }],
    ['e a selic rendeu qto nesse mes?', { unit: 'month', offset: 0 }, { kind: 'relative_month', offset: 0 }],
    ['e o patrimonio liquido nessa data?', { unit: 'day', offset: 0 }, { kind: 'latest' }],
    // A bare unit ending the question is the one the conversation's date is in; alone, "no ano" is this year.
    ['e quanto subiu no semestre?', { unit: 'semester', offset: 0 }, { kind: 'latest' }],
    ['e quanto variou no ano?', { unit: 'year', offset: 0 }, { kind: 'relative_year', offset: 0, to_date: true }],
  ])('%s', (q, shift, alone) => expect(parsePeriod(q)).toMatchObject({ shift, spec: alone }));

  it('two dates joined by "e" span from one to the other; a range said with "entre" stays one range', () => {
    expect(parsePeriod('qtos cotistas tinha em dez/2020 e quantos em dez/2023?')).toMatchObject({
      spec: range('2020-12-01', '2020-12-31', 'month'),
      span: range('2020-12-01', '2023-12-31', 'custom'),
    });
    expect(parsePeriod('ifix entre junho e setembro de 2023')?.span).toBeUndefined();
    expect(parsePeriod('dividendos de 2023, e o total?')?.span).toBeUndefined();
  });

  it('a span that starts at a close starts after the month or year whose close it is', () => {
    expect(parsePeriod('quanto variou do fechamento de dez/2021 ao de dez/2022?')?.spec).toEqual(range('2022-01-01', '2022-12-31', 'custom'));
    expect(parsePeriod('qto variou do fechamento mensal de dez/21 pro de dez/22?')?.spec).toEqual(range('2022-01-01', '2022-12-31', 'custom'));
    expect(parsePeriod('quanto variou de dez/2021 a dez/2022?')?.spec).toEqual(range('2021-12-01', '2022-12-31', 'custom'));
    // (a year's close: the span starts with the next year)
    expect(parsePeriod('quanto o ifix rendeu em 2023 (fechamento de 2022 ate fechamento de 2023)?')?.spec).toMatchObject({ from: '2023-01-01', to: '2023-12-31' });
  });

  it('a date said with the shift wins: "e um ano depois, em jun/2023?"', () => {
    expect(parsePeriod('e um ano depois, em jun/2023?')).toEqual({ spec: range('2023-06-01', '2023-06-30', 'month'), matched: 'jun/2023' });
  });

  it.each([
    [range('2024-01-01', '2024-03-31', 'quarter'), 'month', 1, range('2024-04-01', '2024-04-30', 'month')],
    [range('2024-10-01', '2024-12-31', 'quarter'), 'quarter', 1, range('2025-01-01', '2025-03-31', 'quarter')],
    [range('2024-01-01', '2024-06-30', 'semester'), 'semester', -1, range('2023-07-01', '2023-12-31', 'semester')],
    [range('2023-01-01', '2023-12-31', 'year'), 'year', -1, range('2022-01-01', '2022-12-31', 'year')],
    [range('2025-09-23', '2025-09-23', 'day'), 'day', 1, range('2025-09-24', '2025-09-24', 'day')],
    [range('2025-09-26', '2025-09-26', 'day'), 'day', 1, range('2025-09-29', '2025-09-29', 'day')], // Friday → Monday
    [range('2025-09-29', '2025-09-29', 'day'), 'day', -1, range('2025-09-26', '2025-09-26', 'day')],
    [range('2024-12-15', '2024-12-15', 'day'), 'month', 1, range('2025-01-01', '2025-01-31', 'month')],
    [range('2022-08-01', '2022-08-31', 'month'), 'month', 0, range('2022-08-01', '2022-08-31', 'month')],
    [range('2023-06-30', '2023-06-30', 'day'), 'day', 0, range('2023-06-30', '2023-06-30', 'day')],
  ] as const)('%j moved by %s %d', (from, unit, offset, expected) => expect(shiftPeriod(from as never, { unit, offset })).toEqual(expected));

  it('"no último dia do mês": the last day of the month the conversation is on', () => {
    const shift = parsePeriod('e no ultimo dia do mes?')?.shift;
    expect(shift).toEqual({ unit: 'month', offset: 0, lastDay: true });
    expect(shiftPeriod(range('2025-03-14', '2025-03-14', 'day') as never, shift!)).toEqual(range('2025-03-31', '2025-03-31', 'day'));
    // "do mês seguinte" ("anterior"): the last day of the month after (before) it
    const next = parsePeriod('e no ultimo dia do mes seguinte?')?.shift;
    expect(shiftPeriod(range('2025-06-30', '2025-06-30', 'day') as never, next!)).toEqual(range('2025-07-31', '2025-07-31', 'day'));
    expect(parsePeriod('no ultimo dia do mes anterior')?.shift).toEqual({ unit: 'month', offset: -1, lastDay: true });
    // ("mês passado" is the calendar's; "mês anterior" counts from the data)
    expect(isCalendarPeriod(parsePeriod('ipca do mes passado')!.spec)).toBe(true);
    expect(isCalendarPeriod(parsePeriod('no mes anterior')!.spec)).toBe(false);
    expect(parsePeriod('ipca do mes passado')?.spec).toEqual({ kind: 'relative_month', offset: -1, calendar: true });
    expect(parsePeriod('e qnto ele pagou no mes anterior')?.spec).toEqual({ kind: 'relative_month', offset: -1 });
  });

  it('"um ano depois", "dois meses antes": the same period moved, its grain kept', () => {
    expect(parsePeriod('e um ano depois?')?.shift).toEqual({ unit: 'year', offset: 1, keep: true });
    expect(parsePeriod('e dois meses antes?')?.shift).toEqual({ unit: 'month', offset: -2, keep: true });
    expect(parsePeriod('e no ano seguinte?')?.shift).toEqual({ unit: 'year', offset: 1 });
    expect(shiftPeriod(range('2022-12-01', '2022-12-31', 'month') as never, { unit: 'year', offset: 1, keep: true })).toEqual(range('2023-12-01', '2023-12-31', 'month'));
    expect(shiftPeriod(range('2024-01-01', '2024-03-31', 'quarter') as never, { unit: 'year', offset: -1, keep: true })).toEqual(range('2023-01-01', '2023-03-31', 'quarter'));
    // "no ano seguinte" of a month is the whole next year.
    expect(shiftPeriod(range('2022-12-01', '2022-12-31', 'month') as never, { unit: 'year', offset: 1 })).toEqual(range('2023-01-01', '2023-12-31', 'year'));
  });
});

describe('periods resolved against the series, never the clock', () => {
  const ifix = { from: '2010-12-30', to: '2025-12-23' };
  it('"últimos 12 meses" of monthly events is 12 whole months ending with the latest month (12 payments, never 13)', () => {
    // HGLG11's data-com 31/05/2024 and 30/05/2025: a day-exact window from 31/05/2024 held both.
    expect(trailingMonths('2025-05-30', 12, 'day')).toEqual({ from: '2024-05-31', to: '2025-05-30' });
    expect(trailingMonths('2025-05-30', 12, 'month')).toEqual({ from: '2024-06-01', to: '2025-05-30' });
    expect(resolvePeriod({ kind: 'trailing', unit: 'year', n: 1 }, { from: '2016-01-29', to: '2025-06-26' }, null, 'month')).toEqual({ from: '2024-07-01', to: '2025-06-26' });
  });

  it('counts relative periods from the latest date the series has', () => {
    expect(resolvePeriod({ kind: 'relative_year', offset: 0, to_date: true }, ifix)).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    expect(resolvePeriod({ kind: 'trailing', unit: 'month', n: 6 }, ifix)).toEqual({ from: '2025-06-24', to: '2025-12-23' });
    // A day without its year: the conversation's year, else the latest year the series reached it.
    expect(resolvePeriod({ kind: 'day_of_month', day: 10, month: 6 }, ifix)).toEqual({ from: '2025-06-10', to: '2025-06-10' });
    expect(resolvePeriod({ kind: 'day_of_month', day: 30, month: 12 }, ifix)).toEqual({ from: '2024-12-30', to: '2024-12-30' });
    // (days without their year: the latest span the series reaches, one across the new year from the year before)
    expect(resolvePeriod({ kind: 'day_of_month', day: 10, month: 6, to: { day: 25, month: 6 } }, ifix)).toEqual({ from: '2025-06-10', to: '2025-06-25' });
    expect(resolvePeriod({ kind: 'day_of_month', day: 20, month: 12, to: { day: 10, month: 1 } }, ifix, 2024)).toEqual({ from: '2023-12-20', to: '2024-01-10' });
    expect(resolvePeriod({ kind: 'day_of_month', day: 10, month: 6 }, ifix, 2022)).toEqual({ from: '2022-06-10', to: '2022-06-10' });
    expect(resolvePeriod({ kind: 'previous_session' }, ifix)).toEqual({ from: '2010-12-30', to: '2025-12-22' });
    expect(resolvePeriod({ kind: 'ago', unit: 'year', n: 1 }, ifix).to).toBe('2024-12-23');
  });
  it('counts "este ano" and "ano passado" from the calendar when today is known (today 27/11/2026, the IFIX ends in 2025)', () => {
    expect(resolvePeriod({ kind: 'relative_year', offset: -1, to_date: false }, ifix, null, 'day', '2026-11-27')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    // ("mês passado" too: October 2026, which the IFIX never reaches; without today, the series' month before its last)
    expect(resolvePeriod({ kind: 'relative_month', offset: -1, calendar: true }, ifix, null, 'day', '2026-11-27')).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(resolvePeriod({ kind: 'relative_month', offset: -1 }, ifix, null, 'day', '2026-11-27')).toEqual({ from: '2025-11-01', to: '2025-11-30' });
    expect(resolvePeriod({ kind: 'relative_month', offset: -1 }, ifix)).toEqual({ from: '2025-11-01', to: '2025-11-30' });
    expect(resolvePeriod({ kind: 'relative_year', offset: 0, to_date: true }, ifix, null, 'day', '2026-11-27')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(resolvePeriod({ kind: 'relative_year', offset: -1, to_date: false, month: 9 }, ifix, null, 'day', '2026-11-27')).toEqual({ from: '2025-09-01', to: '2025-09-30' });
  });
  it('gives one month of a year counted back ("setembro do ano passado")', () => {
    expect(resolvePeriod({ kind: 'relative_year', offset: -1, to_date: false, month: 9 }, ifix)).toEqual({ from: '2024-09-01', to: '2024-09-30' });
  });
  it('gives a monthly series exactly its last 12 months', () => {
    expect(resolvePeriod({ kind: 'trailing', unit: 'month', n: 12 }, { from: '2011-01-01', to: '2025-10-01' })).toEqual({ from: '2024-10-02', to: '2025-10-01' });
  });
  it('puts a month said without a year in the conversation year, else the latest year that reached it', () => {
    expect(resolvePeriod({ kind: 'months_of_year', from_month: 4, to_month: 4 }, ifix, 2024)).toEqual({ from: '2024-04-01', to: '2024-04-30' });
    expect(resolvePeriod({ kind: 'months_of_year', from_month: 11, to_month: 11 }, { from: '2020-01-01', to: '2025-03-31' })).toEqual({ from: '2024-11-01', to: '2024-11-30' });
  });
});

describe('periods in words', () => {
  it.each([
    ['2024-01-01', '2024-12-31', 'em 2024'],
    ['2024-03-01', '2024-03-31', 'em março de 2024'],
    ['2023-01-01', '2023-03-31', 'no 1º trimestre de 2023 (janeiro a março)'],
    ['2025-01-01', '2025-05-31', 'de janeiro a maio de 2025'],
    ['2025-06-13', '2025-06-13', 'em 13/06/2025'],
    ['2024-01-02', '2024-06-28', 'de 02/01/2024 a 28/06/2024'],
  ])('%s..%s', (from, to, words) => expect(describePeriod(from, to)).toBe(words));
});

describe('todayInBrazil', () => {
  it('turns the day at midnight in São Paulo, also when asked again within the same hour', () => {
    expect(todayInBrazil(new Date('2024-03-01T02:10:00Z'))).toBe('2024-02-29');
    expect(todayInBrazil(new Date('2024-03-01T02:59:59Z'))).toBe('2024-02-29');
    expect(todayInBrazil(new Date('2024-03-01T03:00:00Z'))).toBe('2024-03-01');
    expect(todayInBrazil(new Date('2024-03-01T03:59:00Z'))).toBe('2024-03-01');
    expect(todayInBrazil(new Date('2024-03-01T02:30:00Z'))).toBe('2024-02-29');
    expect(todayInBrazil(new Date('2019-01-01T01:30:00Z'))).toBe('2018-12-31'); // summer time then: UTC-2
    expect(todayInBrazil(new Date('2019-01-01T02:30:00Z'))).toBe('2019-01-01');
  });
});

describe('isPast', () => {
  const today = '2026-11-28';
  it.each([
    ['em 2023', true],
    ['ano passado', true],
    ['ontem', true],
    ['nos ultimos 6 meses', true],
    ['hoje', false],
    ['em dezembro de 2026', false],
    ['desde 2020', false],
  ])('%s: %s', (text, past) => {
    expect(isPast(parsePeriod(text)?.spec, today)).toBe(past);
  });
});

describe('withinOneMonth', () => {
  it('is a month or a day of it ("em outubro de 2025", "em abril", "mês passado"), never a longer span', () => {
    expect(withinOneMonth({ kind: 'range', from: '2025-10-01', to: '2025-10-31', grain: 'month' })).toBe(true);
    expect(withinOneMonth({ kind: 'months_of_year', from_month: 4, to_month: 4 })).toBe(true);
    expect(withinOneMonth({ kind: 'relative_month', offset: -1 })).toBe(true);
    expect(withinOneMonth({ kind: 'relative_year', offset: -1, to_date: false, month: 9 })).toBe(true);
    expect(withinOneMonth({ kind: 'range', from: '2025-01-01', to: '2025-12-31', grain: 'year' })).toBe(false);
    expect(withinOneMonth({ kind: 'months_of_year', from_month: 1, to_month: 6 })).toBe(false);
    expect(withinOneMonth({ kind: 'trailing', unit: 'month', n: 1 })).toBe(false);
  });
});
