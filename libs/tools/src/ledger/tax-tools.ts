import { CotaError } from '@cota/contracts';
import type { ReportSection } from '../report';
import { Dec } from '@cota/finance';
import { Queryable, readLedger } from '@cota/ledger';
import { monthlyTax, replay, yearlyReport } from '@cota/portfolio';
import { formatDate, formatMoney, formatMonthYear } from '@cota/text';

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const brl = (d: Dec) => formatMoney(d.toDecimalPlaces(2, Dec.ROUND_HALF_UP));

async function ledgerOf(db: Queryable, clientId: string) {
  const ledger = await readLedger(db, clientId);
  if (!ledger.length)
    throw new CotaError(
      'NOT_FOUND',
      'Sua carteira ainda não tem lançamentos: envie o extrato de Negociação da B3 (arraste o arquivo para a conversa) ou conte uma compra ("comprei 20 HGLG11 a 158,40 hoje").',
    );
  return ledger;
}

/**
 * The tax of the sales of one fund the client already made ("quanto de IR eu devia pela venda do XPIN11?" after
 * selling them all): the months of those sales as `apurar_ir_vendas` tells them, or null when there was none.
 */
export async function soldFundTax(db: Queryable, ticker: string, ctx: { client_id: string }) {
  const months = replay(await readLedger(db, ctx.client_id))
    .sales.filter((s) => s.ticker === ticker)
    .map((s) => s.date.slice(0, 7))
    .sort();
  if (!months.length) return null;
  return monthlySaleTax(db, { data_inicio: `${months[0]}-01`, data_fim: `${months[months.length - 1]}-01` }, ctx);
}

/**
 * `apurar_ir_vendas`: the monthly result of the client's FII sales from the ledger (each sale at the
 * average price of its moment), losses carried forward against later FII gains, 20% of the rest,
 * the DARF (code 6015) and its due date. A period narrows the months shown; the carried loss still
 * counts every earlier month.
 */
export async function monthlySaleTax(db: Queryable, args: { data_inicio?: unknown; data_fim?: unknown }, ctx: { client_id: string }) {
  const ledger = await ledgerOf(db, ctx.client_id);
  const { sales } = replay(ledger);
  const from = str(args.data_inicio)?.slice(0, 7) ?? '0000-00';
  const to = str(args.data_fim)?.slice(0, 7) ?? '9999-99';
  const months = monthlyTax(sales).filter((m) => m.month >= from && m.month <= to);
  const period = str(args.data_inicio) ? (from === to ? `em ${formatMonthYear(`${from}-01`)}` : `de ${formatMonthYear(`${from}-01`)} a ${formatMonthYear(`${to}-01`)}`) : '';
  if (!months.length) {
    return { meses: [], text: `Você não teve vendas de cotas de FII${period ? ` ${period}` : ''}, então não há imposto sobre vendas a pagar.` };
  }
  const due = months.filter((m) => m.darfAmount.gt(0));
  const total = due.reduce((a, m) => a.plus(m.darfAmount), new Dec(0));
  const head = due.length
    ? `**Imposto sobre as vendas de FII${period ? ` ${period}` : ''}: ${brl(total)} em ${due.length} ${due.length === 1 ? 'DARF' : 'DARFs'} (código 6015).**`
    : `**Não há DARF a pagar pelas vendas de FII${period ? ` ${period}` : ''}.**`;
  const table = [
    '| Mês | Vendas | Resultado | Prejuízo a compensar | Base de cálculo | Imposto (20%) | DARF 6015 | Vencimento |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...months.map(
      (m) =>
        `| ${formatMonthYear(`${m.month}-01`)} | ${m.sales} | ${brl(m.result)} | ${brl(m.lossCarriedOut)} | ${brl(m.taxableBase)} | ${brl(m.taxDue)} | ${m.darfAmount.gt(0) ? brl(m.darfAmount) : m.taxDue.gt(0) ? 'abaixo de R$ 10 (soma ao próximo)' : '—'} | ${m.darfAmount.gt(0) ? formatDate(m.darfDueDate) : '—'} |`,
    ),
  ].join('\n');
  const perSale = sales
    .filter((s) => s.date.slice(0, 7) >= from && s.date.slice(0, 7) <= to)
    .map(
      (s) =>
        `- ${formatDate(s.date)}: ${s.quantity.toFixed()} cotas de ${s.ticker} a ${formatMoney(s.price)}, preço médio de ${formatMoney(s.avgPrice.toDecimalPlaces(4))}: ${s.result.gte(0) ? 'lucro' : 'prejuízo'} de ${brl(s.result.abs())}`,
    );
  const text = [
    head,
    table,
    `Vendas:\n${perSale.join('\n')}`,
    'Regras: 20% sobre o lucro das vendas de cotas de FII no mês (sem isenção de R$ 20 mil), prejuízos compensados com lucros futuros em FIIs, DARF código 6015 até o último dia útil do mês seguinte; valores abaixo de R$ 10,00 somam ao mês seguinte. Não considera o IR retido na fonte (0,005%) nem custos que não estejam no extrato. Não é orientação tributária.',
  ].join('\n\n');
  return {
    meses: months.map((m) => ({
      mes: m.month,
      vendas: m.sales,
      resultado: m.result.toFixed(2),
      prejuizo_a_compensar: m.lossCarriedOut.toFixed(2),
      base_calculo: m.taxableBase.toFixed(2),
      imposto: m.taxDue.toFixed(2),
      darf: m.darfAmount.toFixed(2),
      codigo_darf: m.darfCode,
      vencimento: m.darfDueDate,
    })),
    total_darf: total.toFixed(2),
    text,
  };
}

/**
 * `relatorio_ir_anual`: what to declare for a calendar year, named as the Receita Federal's program
 * asks: Bens e Direitos (group 07, code 03) at cost on 31/12 with the fund's CNPJ, exempt FII income
 * (type 99) per paying fund's CNPJ, and the monthly "Renda Variável" results of FII sales; with the
 * link to download it as CSV.
 */
export async function yearlyTaxReport(db: Queryable, args: { ano?: unknown }, ctx: { client_id: string; today: string }) {
  const year = typeof args.ano === 'number' ? args.ano : Number(ctx.today.slice(0, 4)) - 1;
  if (!Number.isInteger(year) || year < 2000 || year > Number(ctx.today.slice(0, 4))) throw new CotaError('BAD_REQUEST', 'Diga o ano-calendário do relatório (ex.: 2025).');
  const ledger = await ledgerOf(db, ctx.client_id);
  const tickers = [...new Set(ledger.map((e) => e.ticker))];
  const funds: Array<{ ticker: string; fii_cnpj: string | null; display_name: string | null }> = await db.query(
    `SELECT ticker, fii_cnpj, display_name FROM wh_funds WHERE ticker = ANY($1::text[])`,
    [tickers],
  );
  const r = yearlyReport(ledger, year, new Map(funds.map((f) => [f.ticker, { cnpj: f.fii_cnpj, name: f.display_name }])));
  const csvUrl = `/me/reports/ir/${year}.csv`;
  const text = yearlyReportText(r, year, csvUrl);
  const sections = yearlyReportSections(r, year);
  return {
    ano: year,
    sections,
    bens: r.bens.map((b) => ({
      ticker: b.ticker,
      cnpj: b.cnpj,
      discriminacao: b.discriminacao,
      situacao_anterior: b.situacaoAnterior.toFixed(2),
      situacao: b.situacao.toFixed(2),
    })),
    rendimentos_isentos: r.rendimentosIsentos.map((i) => ({ ticker: i.ticker, cnpj_fonte_pagadora: i.cnpjFontePagadora, valor: i.valor.toFixed(2) })),
    renda_variavel: r.rendaVariavelFii.map((m) => ({
      mes: m.month,
      resultado: m.result.toFixed(2),
      imposto: m.taxDue.toFixed(2),
      darf: m.darfAmount.toFixed(2),
      vencimento: m.darfDueDate,
    })),
    csv_url: csvUrl,
    text,
  };
}

type YearlyReport = ReturnType<typeof yearlyReport>;

/** The report as the chat shows it: one markdown table per section of the declaration. */
function yearlyReportText(r: YearlyReport, year: number, csvUrl: string): string {
  const bens = r.bens.length
    ? [
        `| Código de negociação | CNPJ do fundo | Discriminação | Situação em 31/12/${year - 1} | Situação em 31/12/${year} |`,
        '|---|---|---|---:|---:|',
        ...r.bens.map((b) => `| ${b.ticker} | ${b.cnpj ?? '—'} | ${b.discriminacao} | ${brl(b.situacaoAnterior)} | ${brl(b.situacao)} |`),
      ].join('\n')
    : `Nenhuma cota de FII em 31/12/${year - 1} nem em 31/12/${year}.`;
  const isentos = r.rendimentosIsentos.length
    ? [
        '| Fonte pagadora (CNPJ) | Nome | Valor |',
        '|---|---|---:|',
        ...r.rendimentosIsentos.map((i) => `| ${i.cnpjFontePagadora ?? '—'} | ${i.nomeFontePagadora} (${i.ticker}) | ${brl(i.valor)} |`),
      ].join('\n')
    : `Nenhum rendimento de FII registrado em ${year} (importe o extrato de Movimentação da B3 para incluí-los).`;
  const rv = r.rendaVariavelFii.length
    ? [
        '| Mês | Resultado líquido | Prejuízo a compensar | Imposto devido | DARF 6015 | Vencimento |',
        '|---|---:|---:|---:|---:|---|',
        ...r.rendaVariavelFii.map(
          (m) => `| ${formatMonthYear(`${m.month}-01`)} | ${brl(m.result)} | ${brl(m.lossCarriedOut)} | ${brl(m.taxDue)} | ${brl(m.darfAmount)} | ${formatDate(m.darfDueDate)} |`,
        ),
      ].join('\n')
    : `Nenhuma venda de cotas de FII em ${year}.`;
  return [
    `**Relatório para a declaração do Imposto de Renda ${year + 1} (ano-calendário ${year}), a partir da sua carteira no Cota.**`,
    `**Bens e Direitos** — grupo 07 (Fundos), código 03 (Fundos de Investimento Imobiliário), pelo custo de aquisição:\n\n${bens}`,
    `**Rendimentos Isentos e Não Tributáveis** — tipo 99 (Outros), rendimentos de FII por fonte pagadora:\n\n${isentos}`,
    `**Renda Variável** — operações com cotas de fundos imobiliários, mês a mês:\n\n${rv}`,
    `Prejuízo a compensar no ano seguinte: ${brl(r.prejuizoACompensar)}. Baixe o relatório em CSV (${csvUrl}) ou peça "manda por e-mail".`,
    'Confira com o informe de rendimentos da corretora; não é orientação tributária.',
  ].join('\n\n');
}

/** The report's sections as typed tables, for the page and the CSV. */
function yearlyReportSections(r: YearlyReport, year: number): ReportSection[] {
  const as_of = `${year}-12-31`;
  return [
    {
      id: 'bens_e_direitos',
      title: 'Bens e Direitos — grupo 07, código 03 (pelo custo de aquisição)',
      columns: [
        { name: 'ticker', type: 'text', label: 'Código' },
        { name: 'cnpj', type: 'text', label: 'CNPJ do fundo' },
        { name: 'discriminacao', type: 'text', label: 'Discriminação' },
        { name: 'situacao_anterior', type: 'money', label: `Situação em 31/12/${year - 1}` },
        { name: 'situacao', type: 'money', label: `Situação em 31/12/${year}` },
      ],
      rows: r.bens.map((b) => ({
        ticker: b.ticker,
        cnpj: b.cnpj,
        discriminacao: b.discriminacao,
        situacao_anterior: b.situacaoAnterior.toFixed(2),
        situacao: b.situacao.toFixed(2),
      })),
      as_of,
      note: r.bens.length ? null : 'Nenhuma cota de FII no fim dos dois anos.',
    },
    {
      id: 'rendimentos_isentos',
      title: 'Rendimentos Isentos e Não Tributáveis — tipo 99 (Outros)',
      columns: [
        { name: 'cnpj_fonte_pagadora', type: 'text', label: 'CNPJ da fonte pagadora' },
        { name: 'fonte_pagadora', type: 'text', label: 'Fonte pagadora' },
        { name: 'valor', type: 'money', label: 'Valor' },
      ],
      rows: r.rendimentosIsentos.map((i) => ({ cnpj_fonte_pagadora: i.cnpjFontePagadora, fonte_pagadora: `${i.nomeFontePagadora} (${i.ticker})`, valor: i.valor.toFixed(2) })),
      as_of,
      note: r.rendimentosIsentos.length ? null : 'Nenhum rendimento de FII registrado no ano.',
    },
    {
      id: 'renda_variavel',
      title: 'Renda Variável — operações com cotas de FII',
      columns: [
        { name: 'mes', type: 'text', label: 'Mês' },
        { name: 'resultado', type: 'money', label: 'Resultado líquido' },
        { name: 'prejuizo_a_compensar', type: 'money', label: 'Prejuízo a compensar' },
        { name: 'imposto', type: 'money', label: 'Imposto devido' },
        { name: 'darf', type: 'money', label: 'DARF 6015' },
        { name: 'vencimento', type: 'date', label: 'Vencimento' },
      ],
      rows: r.rendaVariavelFii.map((m) => ({
        mes: formatMonthYear(`${m.month}-01`),
        resultado: m.result.toFixed(2),
        prejuizo_a_compensar: m.lossCarriedOut.toFixed(2),
        imposto: m.taxDue.toFixed(2),
        darf: m.darfAmount.toFixed(2),
        vencimento: m.darfDueDate,
      })),
      as_of,
      note: r.rendaVariavelFii.length ? null : 'Nenhuma venda de cotas de FII no ano.',
    },
  ];
}
