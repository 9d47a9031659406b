import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { ZipFile } from 'yazl';
import { dataDir } from '@cota/config';

/**
 * A local HTTP server that answers like the public sources Cota's feeds read, in their real formats,
 * from the raw data set read in place (COTA_DATA_DIR): Banco Central's SGS JSON (SELIC 11 from
 * opbrreit, CDI 12 from market16, dollar 1/10813 and IPCA 433 from araquem), B3's daily COTAHIST zips
 * (dashbord's June 2025 sessions), CVM's yearly monthly-report zips (the files as CVM published them)
 * and FundosNet's income-announcement listing and base64 XML documents (araquem's dividends). Tests
 * can make a path fail, serve a malformed body, or publish a new announcement.
 */
export class RecordedSources {
  private server?: Server;
  private readonly failures = new Map<string, number[]>();
  private readonly overrides = new Map<string, Buffer>();
  private readonly announcements: Array<{ id: number; ticker: string; record: string; payment: string; amount: number; delivered: string }> = [];
  private readonly sessions: Map<string, string[][]>;
  readonly hits: string[] = [];
  private readonly dir: string;

  constructor(dir = dataDir()) {
    this.dir = dir;
    this.sessions = new Map();
    for (const r of csv(join(dir, 'dashbord/cotacoes.csv'))) {
      const day = r.data;
      if (!this.sessions.has(day)) this.sessions.set(day, []);
      this.sessions.get(day)!.push([r.ticker, r.abertura, r.maxima, r.minima, r.fechamento, r.negocios, r.quantidade, r.volume]);
    }
    let id = 100000;
    const divs = csv(join(dir, 'araquem/samples/fiis_dividends.csv')).sort((a, b) => a.traded_until_date.localeCompare(b.traded_until_date));
    for (const r of divs) {
      this.announcements.push({
        id: id++,
        ticker: r.ticker,
        record: r.traded_until_date.slice(0, 10),
        payment: r.payment_date.slice(0, 10),
        amount: Number(r.dividend_amt),
        delivered: r.created_at.slice(0, 10),
      });
    }
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next answers to paths starting with `prefix` are these statuses (e.g. [500, 500]), then normal again. */
  fail(prefix: string, statuses: number[]): void {
    this.failures.set(prefix, [...statuses]);
  }

  /** Serves `body` at `path` (exact, query included or not) instead of the recorded file. */
  override(path: string, body: string | Buffer | null): void {
    if (body === null) this.overrides.delete(path);
    else this.overrides.set(path, Buffer.from(body));
  }

  /** A fund publishes an income announcement; returns its document id. */
  announce(a: { ticker: string; record: string; payment: string; amount: number }): number {
    const id = Math.max(...this.announcements.map((x) => x.id)) + 1;
    this.announcements.push({ id, ...a, delivered: a.record });
    return id;
  }

  sessionDays(): string[] {
    return [...this.sessions.keys()].sort();
  }

  cvmYears(): number[] {
    return readdirSync(join(this.dir, 'cvm'))
      .map((f) => /^inf_mensal_fii_(\d{4})\.zip$/.exec(f)?.[1])
      .filter((y): y is string => !!y)
      .map(Number);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    this.hits.push(url.pathname + url.search);
    for (const [prefix, statuses] of this.failures) {
      if (url.pathname.startsWith(prefix) && statuses.length) {
        res.writeHead(statuses.shift()!).end('erro temporário');
        return;
      }
    }
    const over = this.overrides.get(url.pathname + url.search) ?? this.overrides.get(url.pathname);
    if (over) return void res.writeHead(200).end(over);
    try {
      const answer = await this.route(url, req);
      if (!answer) return void res.writeHead(404).end('não encontrado');
      if (answer.etag && req.headers['if-none-match'] === answer.etag) return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': answer.type, ...(answer.etag ? { etag: answer.etag } : {}) }).end(answer.body);
    } catch (e) {
      res.writeHead(500).end((e as Error).message);
    }
  }

  private async route(url: URL, _req: IncomingMessage): Promise<{ body: Buffer; type: string; etag?: string } | null> {
    const p = url.pathname;
    let m = /^\/sgs\/bcdata\.sgs\.(\d+)\/dados$/.exec(p);
    if (m) return this.sgs(Number(m[1]), url.searchParams.get('dataInicial'), url.searchParams.get('dataFinal'));
    m = /^\/b3\/COTAHIST_D(\d{2})(\d{2})(\d{4})\.ZIP$/.exec(p);
    if (m) return this.cotahist(`${m[3]}-${m[2]}-${m[1]}`);
    m = /^\/cvm\/(inf_mensal_fii_\d{4}\.zip)$/.exec(p);
    if (m) {
      const file = join(this.dir, 'cvm', m[1]);
      let body: Buffer;
      try {
        body = readFileSync(file);
      } catch {
        return null;
      }
      return { body, type: 'application/zip', etag: `"${createHash('sha1').update(body).digest('hex')}"` };
    }
    if (p === '/fnet/pesquisarGerenciadorDocumentosDados') return this.listing(Number(url.searchParams.get('s') ?? 0), Number(url.searchParams.get('l') ?? 100));
    if (p === '/fnet/downloadDocumento') return this.document(Number(url.searchParams.get('id')));
    return null;
  }

  private sgs(code: number, from: string | null, to: string | null): { body: Buffer; type: string } | null {
    const iso = (b: string | null) => (b ? `${b.slice(6, 10)}-${b.slice(3, 5)}-${b.slice(0, 2)}` : null);
    const [a, b] = [iso(from), iso(to)];
    const series = this.series(code);
    if (!series) return null;
    const points = series.filter(([d]) => (!a || d >= a) && (!b || d <= b)).map(([d, v]) => ({ data: `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`, valor: v }));
    return { body: Buffer.from(JSON.stringify(points)), type: 'application/json' };
  }

  private seriesCache = new Map<number, Array<[string, string]>>();
  private series(code: number): Array<[string, string]> | null {
    if (this.seriesCache.has(code)) return this.seriesCache.get(code)!;
    let out: Array<[string, string]>;
    if (code === 11) out = csv(join(this.dir, 'opbrreit/selic_daily.csv')).map((r) => [r.Date, r.SELIC]);
    else if (code === 12) out = csv(join(this.dir, 'market16/macro_daily.csv')).map((r) => [r.data, r.cdi]);
    else if (code === 1 || code === 10813) {
      out = csv(join(this.dir, 'araquem/samples/history_currency_rates.csv'))
        .map((r) => [r.rate_date.slice(0, 10), code === 1 ? r.usd_sell_amt : r.usd_buy_amt] as [string, string])
        .filter(([, v]) => Number(v) > 0);
    } else if (code === 433) {
      out = csv(join(this.dir, 'araquem/samples/history_market_indicators.csv'))
        .filter((r) => r.indicator_name === 'IPCA')
        .map((r) => [`${r.indicator_date.slice(0, 7)}-01`, r.indicator_amt]);
    } else return null;
    out.sort((x, y) => x[0].localeCompare(y[0]));
    this.seriesCache.set(code, out);
    return out;
  }

  private async cotahist(day: string): Promise<{ body: Buffer; type: string } | null> {
    const rows = this.sessions.get(day);
    if (!rows) return null;
    const compact = day.replace(/-/g, '');
    const lines = [`00COTAHIST.${day.slice(0, 4)}BOVESPA ${compact}`.padEnd(245, ' ')];
    for (const [ticker, open, max, min, close, trades, qty, vol] of rows) lines.push(cotahistLine(compact, ticker, { open, max, min, close, trades, qty, vol }));
    lines.push(`99COTAHIST.${day.slice(0, 4)}BOVESPA ${compact}${String(lines.length + 1).padStart(11, '0')}`.padEnd(245, ' '));
    const name = `COTAHIST_D${day.slice(8, 10)}${day.slice(5, 7)}${day.slice(0, 4)}.TXT`;
    return { body: await zipOf(name, Buffer.from(lines.join('\r\n') + '\r\n', 'latin1')), type: 'application/zip' };
  }

  private listing(offset: number, limit: number): { body: Buffer; type: string } {
    const newest = [...this.announcements].sort((a, b) => b.id - a.id);
    const data = newest.slice(offset, offset + limit).map((a) => ({
      id: a.id,
      descricaoFundo: `FII ${a.ticker}`,
      categoriaDocumento: 'Aviso aos Cotistas - Estruturado',
      tipoDocumento: 'Rendimentos e Amortizações',
      dataReferencia: br(a.record),
      dataEntrega: `${br(a.delivered)} 18:00`,
      status: 'AC',
      versao: 1,
    }));
    return { body: Buffer.from(JSON.stringify({ draw: 0, recordsFiltered: newest.length, recordsTotal: newest.length, data })), type: 'application/json' };
  }

  private document(id: number): { body: Buffer; type: string } | null {
    const a = this.announcements.find((x) => x.id === id);
    if (!a) return null;
    // FundosNet changed layouts around late 2022: one Provento per share class since then.
    const xml =
      a.record >= '2022-10-01'
        ? `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><DadosEconomicoFinanceiros><DadosGerais><NomeFundo>FII ${a.ticker}</NomeFundo></DadosGerais><InformeRendimentos><Provento><CodNegociacao>${a.ticker}</CodNegociacao><Rendimento><DataAprovacao>${a.record}</DataAprovacao><DataBase>${a.record}</DataBase><DataPagamento>${a.payment}</DataPagamento><ValorProvento>${a.amount}</ValorProvento><RendimentoIsentoIR>Sim</RendimentoIsentoIR></Rendimento><Amortizacao/></Provento></InformeRendimentos></DadosEconomicoFinanceiros>`
        : `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><DadosEconomicoFinanceiros><DadosGerais><NomeFundo>FII ${a.ticker}</NomeFundo><CodNegociacaoCota>${a.ticker}</CodNegociacaoCota></DadosGerais><InformeRendimentos><Rendimento><DataBase>${a.record}</DataBase><DataPagamento>${a.payment}</DataPagamento><ValorProventoCota>${a.amount}</ValorProventoCota><RendimentoIsentoIR>true</RendimentoIsentoIR></Rendimento><Amortizacao tipo=""/></InformeRendimentos></DadosEconomicoFinanceiros>`;
    return { body: Buffer.from(Buffer.from(xml, 'utf8').toString('base64')), type: 'text/plain' };
  }
}

function br(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

function csv(path: string): Array<Record<string, string>> {
  return parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true, bom: true });
}

/** One COTAHIST `01` line (SeriesHistoricas_Layout): BDI 12 (FII), cash market 010, prices with two implied decimals. */
export function cotahistLine(compactDate: string, ticker: string, q: Record<'open' | 'max' | 'min' | 'close' | 'trades' | 'qty' | 'vol', string>): string {
  const price = (v: string) => String(Math.round(Number(v) * 100)).padStart(13, '0');
  const int = (v: string, n: number) => String(Math.round(Number(v))).padStart(n, '0');
  const line =
    '01' +
    compactDate +
    '12' +
    ticker.padEnd(12, ' ') +
    '010' +
    `FII ${ticker.slice(0, 4)}`.padEnd(12, ' ') +
    'CI'.padEnd(10, ' ') +
    '   ' +
    'R$  ' +
    price(q.open) +
    price(q.max) +
    price(q.min) +
    price(((Number(q.max) + Number(q.min)) / 2).toFixed(2)) +
    price(q.close) +
    price(q.close) +
    price(q.close) +
    int(q.trades, 5) +
    int(q.qty, 18) +
    String(Math.round(Number(q.vol) * 100)).padStart(18, '0') +
    '0'.repeat(13) +
    '0' +
    '99991231' +
    '0000001' +
    '0'.repeat(13) +
    `BR${ticker.slice(0, 4)}CTF000` +
    '100';
  if (line.length !== 245) throw new Error(`COTAHIST line of ${line.length} characters`);
  return line;
}

async function zipOf(name: string, content: Buffer): Promise<Buffer> {
  const zip = new ZipFile();
  zip.addBuffer(content, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
