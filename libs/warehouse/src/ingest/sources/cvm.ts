import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as iconv from 'iconv-lite';
import { IngestError, parseCsv, readCsv, Rec } from '../csv';
import { cleanTicker, emptyRaw, formatCnpj, RawData, Row } from '../model';
import { readZip } from '../zip';

/** CVM ISINs of FII shares are BR + 4-letter code + CTF...; the traded ticker is that code + 11. */
export function tickerFromIsin(isin: string | null): string | null {
  const m = /^BR([A-Z]{4})CTF/.exec(isin ?? '');
  return m ? `${m[1]}11` : null;
}

interface Month {
  geral?: Rec;
  complemento?: Rec;
  ativo?: Rec;
  versions: Partial<Record<'geral' | 'complemento' | 'ativo', number>>;
}

/**
 * cvm/: monthly reports (zips as published, `;` CSVs in latin-1). For each fund-month the latest
 * `Versao` wins; the three files join on (CNPJ, Data_Referencia).
 */
export async function readCvm(dir: string, raw: RawData, progress: (file: string) => void): Promise<void> {
  const zips = readdirSync(join(dir, 'cvm'))
    .filter((f) => /^inf_mensal_fii_\d{4}\.zip$/.test(f))
    .sort();
  if (!zips.length) throw new IngestError('cvm/', null, 'no inf_mensal_fii_YYYY.zip found');
  const months = new Map<string, Month>();
  for (const z of zips) {
    const shown = `cvm/${z}`;
    progress(shown);
    collectMonths(await readZip(join(dir, 'cvm', z), shown), shown, months, raw);
  }
  const tickerByCnpj = tickersByCnpj(months);
  const latestByCnpj = new Map<string, { date: string; g: Rec; c?: Rec }>();
  for (const [key, m] of months) {
    const [cnpj, date] = key.split('|');
    const g = m.geral;
    const c = m.complemento;
    raw.cvmMonthly.push(monthlyRow(key, m, tickerByCnpj, raw));
    if (g) {
      const prev = latestByCnpj.get(cnpj);
      if (!prev || prev.date < date) latestByCnpj.set(cnpj, { date, g, c });
    }
  }

  for (const [cnpj, { date, g, c }] of latestByCnpj) {
    const ticker = cleanTicker(tickerFromIsin(g.str('Codigo_ISIN')) ?? tickerByCnpj.get(cnpj)?.ticker ?? null, raw);
    if (!ticker) continue;
    raw.funds.push({
      ticker,
      source: 'cvm',
      as_of: date,
      segment: g.str('Segmento_Atuacao'),
      fields: {
        fii_cnpj: cnpj,
        display_name: g.str('Nome_Fundo'),
        isin: tickerFromIsin(g.str('Codigo_ISIN')) ? g.str('Codigo_ISIN') : null,
        management_type: g.str('Tipo_Gestao'),
        target_market: g.str('Publico_Alvo'),
        is_exclusive: g.bool('Fundo_Exclusivo'),
        mandate: g.str('Mandato'),
        website_url: g.str('Site'),
        admin_name: g.str('Nome_Administrador'),
        admin_cnpj: formatCnpj(g.str('CNPJ_Administrador')),
        shares_count: c?.num('Cotas_Emitidas') ?? g.num('Quantidade_Cotas_Emitidas'),
        shareholders_count: c?.num('Total_Numero_Cotistas') ?? null,
      },
    });
  }

  // B3's list of listed funds: 4-letter code and trading name.
  progress('cvm/fundosListados.csv');
  const listed = readCsv(dir, 'cvm/fundosListados.csv', ';');
  raw.filesRead.push({ file: 'cvm/fundosListados.csv', rows: listed.length });
  for (const r of listed) {
    const ticker = cleanTicker(`${r.req('Código')}11`, raw);
    if (!ticker) continue;
    raw.funds.push({ ticker, source: 'b3list', segment: null, fields: { display_name: r.str('Razão Social'), b3_name: r.str('Fundo') } });
  }
}

/** Adds the monthly report files of one yearly zip (`geral`, `complemento`, `ativo_passivo`) to `months`; the latest `Versao` of a fund-month wins. */
function collectMonths(files: Map<string, Buffer>, shown: string, months: Map<string, Month>, raw: RawData): void {
  for (const [name, buf] of files) {
    const kind = /_geral_/.test(name) ? 'geral' : /_complemento_/.test(name) ? 'complemento' : /_ativo_passivo_/.test(name) ? 'ativo' : null;
    if (!kind) continue;
    const recs = parseCsv(iconv.decode(buf, 'latin1'), `${shown}!${name}`, ';');
    raw.filesRead.push({ file: `${shown}!${name}`, rows: recs.length });
    for (const r of recs) {
      const key = `${r.req('CNPJ_Fundo')}|${r.date('Data_Referencia')}`;
      const version = r.num('Versao') ?? 1;
      const m = months.get(key) ?? { versions: {} };
      // Later versions replace earlier ones of the same month (CVM re-deliveries).
      if (version < (m.versions[kind] ?? -1)) continue;
      m[kind] = r;
      m.versions[kind] = version;
      months.set(key, m);
    }
  }
}

function tickersByCnpj(months: Map<string, Month>): Map<string, { date: string; ticker: string }> {
  // A fund's ticker is the fund's, not the month's: some reports carry a broken or empty ISIN (XPLG11's
  // "RXPLGCTF002" in 2023-11, none in 2023-12), and those months take the CNPJ's ticker from its other reports.
  const tickerByCnpj = new Map<string, { date: string; ticker: string }>();
  for (const [key, m] of months) {
    const [cnpj, date] = key.split('|');
    const t = m.geral ? tickerFromIsin(m.geral.str('Codigo_ISIN')) : null;
    const prev = tickerByCnpj.get(cnpj);
    if (t && (!prev || prev.date < date)) tickerByCnpj.set(cnpj, { date, ticker: t });
  }
  return tickerByCnpj;
}

/** One `wh_cvm_monthly` row per fund-month of the report files of one yearly zip as published (the live feed's reader). */
export function cvmMonthlyRowsFromZip(files: Map<string, Buffer>, shown: string): Row[] {
  const raw = emptyRaw();
  const months = new Map<string, Month>();
  collectMonths(files, shown, months, raw);
  if (!raw.filesRead.length) throw new IngestError(shown, null, 'no inf_mensal_fii_geral/complemento/ativo_passivo CSV in the archive');
  const tickerByCnpj = tickersByCnpj(months);
  return [...months].map(([key, m]) => monthlyRow(key, m, tickerByCnpj, raw));
}

function monthlyRow(key: string, m: Month, tickerByCnpj: Map<string, { date: string; ticker: string }>, raw: RawData): Row {
  const [cnpj, date] = key.split('|');
  const g = m.geral;
  const c = m.complemento;
  const a = m.ativo;
  const ticker = (g ? tickerFromIsin(g.str('Codigo_ISIN')) : null) ?? tickerByCnpj.get(cnpj)?.ticker ?? null;
  return {
    fii_cnpj: cnpj,
    ref_date: date,
    ticker: ticker && cleanTicker(ticker, raw),
    fund_name: g?.str('Nome_Fundo') ?? null,
    segment_raw: g?.str('Segmento_Atuacao') ?? null,
    shares_count: c?.num('Cotas_Emitidas') ?? g?.num('Quantidade_Cotas_Emitidas') ?? null,
    shareholders_count: c?.num('Total_Numero_Cotistas') ?? null,
    total_assets_amt: c?.num('Valor_Ativo') ?? null,
    equity_value: c?.num('Patrimonio_Liquido') ?? null,
    equity_per_share: c?.num('Valor_Patrimonial_Cotas') ?? null,
    dy_monthly_ratio: c?.num('Percentual_Dividend_Yield_Mes') ?? null,
    return_monthly_ratio: c?.num('Percentual_Rentabilidade_Efetiva_Mes') ?? null,
    cash_amt: a?.num('Disponibilidades') ?? null,
    dividend_reserve_amt: a?.num('Rendimentos_Distribuir') ?? null,
    admin_fee_due_amt: a?.num('Taxa_Administracao_Pagar') ?? null,
    perf_fee_due_amt: a?.num('Taxa_Performance_Pagar') ?? null,
    liabilities_total_amt: a?.num('Total_Passivo') ?? null,
    source: 'cvm',
  };
}
