import { Dec } from '@cota/finance';
import { LedgerEntry } from './ledger';
import { monthlyTax, MonthlyTax } from './tax';
import { replay } from './positions';

/** What the report knows of a fund: its CNPJ (the asset's and, for FIIs, the paying source's) and name. */
export interface FundIdentity {
  cnpj: string | null;
  name: string | null;
}

/** "Bens e Direitos", group 07 (Fundos), code 03 (Fundos de Investimento Imobiliário), one per fund. */
export interface AssetLine {
  grupo: '07';
  codigo: '03';
  ticker: string;
  cnpj: string | null;
  discriminacao: string;
  quantidadeAnterior: Dec;
  situacaoAnterior: Dec;
  quantidade: Dec;
  situacao: Dec;
}

/** "Rendimentos Isentos e Não Tributáveis", type 99 (Outros): FII income of the year, per paying fund. */
export interface ExemptIncomeLine {
  tipo: '99';
  ticker: string;
  cnpjFontePagadora: string | null;
  nomeFontePagadora: string;
  valor: Dec;
}

export interface YearlyReport {
  year: number;
  bens: AssetLine[];
  rendimentosIsentos: ExemptIncomeLine[];
  /** "Renda Variável", operations with FII shares: the twelve months (only months with sales listed). */
  rendaVariavelFii: MonthlyTax[];
  /** Loss still to carry into the next year. */
  prejuizoACompensar: Dec;
  totalImpostoDevido: Dec;
}

const money = (v: Dec) => v.toDecimalPlaces(2, Dec.ROUND_HALF_UP);

/**
 * The yearly income-tax report of a ledger: positions on 31/12 of the year and the year before at
 * acquisition cost (never market value), the year's exempt FII income by paying fund, and the
 * monthly results of FII sales with the losses carried from earlier years.
 */
export function yearlyReport(entries: readonly LedgerEntry[], year: number, funds: ReadonlyMap<string, FundIdentity>): YearlyReport {
  const end = `${year}-12-31`;
  const before = replay(entries, `${year - 1}-12-31`);
  const now = replay(entries, end);
  const tickers = [...new Set([...before.positions.keys(), ...now.positions.keys()])].sort();
  const bens: AssetLine[] = [];
  for (const ticker of tickers) {
    const a = before.positions.get(ticker);
    const b = now.positions.get(ticker);
    const qa = a?.quantity ?? new Dec(0);
    const qb = b?.quantity ?? new Dec(0);
    if (qa.isZero() && qb.isZero()) continue;
    const f = funds.get(ticker);
    const avg = b?.avgPrice ? ` ao preço médio de R$ ${money(b.avgPrice).toFixed(2).replace('.', ',')}` : '';
    bens.push({
      grupo: '07',
      codigo: '03',
      ticker,
      cnpj: f?.cnpj ?? null,
      discriminacao: `${qb.toFixed()} cotas do fundo imobiliário ${f?.name ?? ticker} (${ticker})${avg}`,
      quantidadeAnterior: qa,
      situacaoAnterior: money(a?.cost ?? new Dec(0)),
      quantidade: qb,
      situacao: money(b?.cost ?? new Dec(0)),
    });
  }
  const income = new Map<string, Dec>();
  for (const e of entries) if (e.kind === 'income' && e.date.startsWith(`${year}-`)) income.set(e.ticker, (income.get(e.ticker) ?? new Dec(0)).plus(new Dec(e.amount)));
  const rendimentosIsentos: ExemptIncomeLine[] = [...income.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([ticker, valor]) => ({
      tipo: '99',
      ticker,
      cnpjFontePagadora: funds.get(ticker)?.cnpj ?? null,
      nomeFontePagadora: funds.get(ticker)?.name ?? ticker,
      valor: money(valor),
    }));
  // Losses of earlier years carry into this one: replay every month before, keep the closing loss.
  const allMonths = monthlyTax(now.sales);
  const earlier = allMonths.filter((m) => m.month < `${year}-01`);
  const opening = earlier.length ? earlier[earlier.length - 1].lossCarriedOut : new Dec(0);
  const rendaVariavelFii = monthlyTax(
    now.sales.filter((s) => s.date.startsWith(`${year}-`)),
    opening,
  );
  const last = rendaVariavelFii[rendaVariavelFii.length - 1];
  return {
    year,
    bens,
    rendimentosIsentos,
    rendaVariavelFii,
    prejuizoACompensar: last ? last.lossCarriedOut : opening,
    totalImpostoDevido: rendaVariavelFii.reduce((a, m) => a.plus(m.taxDue), new Dec(0)),
  };
}

/** The report as CSV (semicolon-separated, decimal comma, as Brazilian spreadsheets open it). */
export function yearlyReportCsv(r: YearlyReport): string {
  const n = (v: Dec) => v.toFixed(2).replace('.', ',');
  const q = (s: string | null) => `"${(s ?? '').replace(/"/g, '""')}"`;
  const lines: string[] = [];
  lines.push(`${q(`Relatório para o Imposto de Renda ${r.year + 1} (ano-calendário ${r.year})`)}`);
  lines.push('');
  lines.push(q('Bens e Direitos'));
  lines.push(
    ['Grupo', 'Código', 'Código de negociação', 'CNPJ do fundo', 'Discriminação', `Situação em 31/12/${r.year - 1} (R$)`, `Situação em 31/12/${r.year} (R$)`].map(q).join(';'),
  );
  for (const b of r.bens) lines.push([q(b.grupo), q(b.codigo), q(b.ticker), q(b.cnpj), q(b.discriminacao), n(b.situacaoAnterior), n(b.situacao)].join(';'));
  lines.push('');
  lines.push(q('Rendimentos Isentos e Não Tributáveis'));
  lines.push(['Tipo de rendimento', 'CNPJ da fonte pagadora', 'Nome da fonte pagadora', 'Valor (R$)'].map(q).join(';'));
  for (const i of r.rendimentosIsentos) lines.push([q('99 - Outros'), q(i.cnpjFontePagadora), q(`${i.nomeFontePagadora} (${i.ticker})`), n(i.valor)].join(';'));
  lines.push('');
  lines.push(q('Renda Variável - Operações Fundos Invest. Imob.'));
  lines.push(
    ['Mês', 'Resultado líquido (R$)', 'Prejuízo a compensar (R$)', 'Base de cálculo (R$)', 'Imposto devido (R$)', 'DARF (R$)', 'Código DARF', 'Vencimento'].map(q).join(';'),
  );
  for (const m of r.rendaVariavelFii)
    lines.push([q(m.month), n(m.result), n(m.lossCarriedOut), n(m.taxableBase), n(m.taxDue), n(m.darfAmount), q(m.darfCode), q(m.darfDueDate)].join(';'));
  return lines.join('\r\n') + '\r\n';
}
