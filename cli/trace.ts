/**
 * `npm run trace -- <request_id>`: one question's trace, end to end, in the terminal (every service,
 * query and Redis command it crossed, with durations), read from Jaeger's query API, and the link that
 * opens it in Jaeger's UI. `npm run trace -- "Qual o CNPJ do HGLG11?"` asks the question first.
 *   JAEGER_URL      Jaeger's UI and API (default http://localhost:16686, docker compose)
 *   COTA_URL        the gateway, to ask (default http://localhost:3000); COTA_API_KEY and COTA_CLIENT_ID
 * The request id is the answer's `meta.request_id` (and its X-Request-Id header).
 */

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references?: Array<{ refType: string; spanID: string }>;
  /** Microseconds since the epoch. */
  startTime: number;
  /** Microseconds. */
  duration: number;
  processID: string;
  tags?: Array<{ key: string; value: unknown }>;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

const REQUEST_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

/** What a span shows besides its name: the statement of a query, the command of Redis, the route. */
function detail(span: JaegerSpan): string {
  const tag = (k: string) => span.tags?.find((t) => t.key === k)?.value;
  const text = tag('db.statement') ?? tag('db.query.text') ?? tag('http.route') ?? tag('http.target') ?? tag('url.path');
  if (typeof text !== 'string') return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 90 ? ` ${flat.slice(0, 89)}…` : ` ${flat}`;
}

/** The trace as an indented tree, children in start order: offset from the start, duration, service, span. */
export function renderTrace(trace: JaegerTrace): string {
  const byParent = new Map<string, JaegerSpan[]>();
  const ids = new Set(trace.spans.map((s) => s.spanID));
  const roots: JaegerSpan[] = [];
  for (const s of trace.spans) {
    const parent = s.references?.find((r) => r.refType === 'CHILD_OF' && ids.has(r.spanID))?.spanID;
    if (parent) byParent.set(parent, [...(byParent.get(parent) ?? []), s]);
    else roots.push(s);
  }
  const start = Math.min(...trace.spans.map((s) => s.startTime));
  const ms = (us: number) => (us / 1000).toFixed(1).padStart(8);
  const lines: string[] = [];
  const walk = (s: JaegerSpan, depth: number) => {
    const service = trace.processes[s.processID]?.serviceName ?? '?';
    lines.push(`${ms(s.startTime - start)} ms ${ms(s.duration)} ms  ${'  '.repeat(depth)}${service}  ${s.operationName}${detail(s)}`);
    for (const c of (byParent.get(s.spanID) ?? []).sort((a, b) => a.startTime - b.startTime)) walk(c, depth + 1);
  };
  for (const r of roots.sort((a, b) => a.startTime - b.startTime)) walk(r, 0);
  const services = new Set(trace.spans.map((s) => trace.processes[s.processID]?.serviceName));
  return [`trace ${trace.traceID}: ${trace.spans.length} spans, ${services.size} serviços`, '  início   duração', ...lines].join('\n');
}

/**
 * The trace of a request id (the `cota.request_id` attribute of the gateway's /ask span), waiting while
 * its spans still arrive (the services export in batches); null when Jaeger has none after `waitMs`.
 */
export async function findTrace(jaegerUrl: string, requestId: string, opts: { fetch?: Fetch; waitMs?: number; pollMs?: number } = {}): Promise<JaegerTrace | null> {
  const get = opts.fetch ?? fetch;
  const tags = encodeURIComponent(JSON.stringify({ 'cota.request_id': requestId }));
  const url = `${jaegerUrl.replace(/\/+$/, '')}/api/traces?service=cota-gateway&tags=${tags}&lookback=1h&limit=5`;
  const until = Date.now() + (opts.waitMs ?? 15_000);
  let last: JaegerTrace | null = null;
  for (;;) {
    const res = await get(url);
    if (!res.ok) throw new Error(`o Jaeger respondeu ${res.status} em ${url}`);
    const found = ((await res.json()) as { data?: JaegerTrace[] }).data?.[0] ?? null;
    // Stable: the same number of spans twice in a row.
    if (found && last && found.spans.length === last.spans.length) return found;
    last = found;
    if (Date.now() >= until) return last;
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 1500));
  }
}

/** Asks a question through the gateway and returns its request id. */
async function ask(question: string): Promise<string> {
  const base = (process.env.COTA_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  const key = process.env.COTA_API_KEY;
  const clientId = process.env.COTA_CLIENT_ID;
  if (!key || !clientId) throw new Error('para perguntar, defina COTA_API_KEY e COTA_CLIENT_ID (a chave e o cliente que o gateway mostra na primeira partida)');
  const res = await fetch(`${base}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ question, conversation_id: `trace-${Date.now()}`, nickname: 'Operação', client_id: clientId }),
  });
  const body = (await res.json()) as { answer?: string; meta?: { request_id?: string } };
  const requestId = body.meta?.request_id ?? res.headers.get('x-request-id');
  if (!requestId) throw new Error(`o gateway respondeu ${res.status} sem request_id`);
  process.stdout.write(`HTTP ${res.status}${body.answer ? `: ${body.answer.split('\n')[0].slice(0, 120)}` : ''}\n`);
  return requestId;
}

async function main(): Promise<void> {
  const arg = process.argv.slice(2).join(' ').trim();
  if (!arg) {
    process.stderr.write('Uso: npm run trace -- <request_id>   ou   npm run trace -- "pergunta"\n');
    process.exit(2);
  }
  const jaeger = process.env.JAEGER_URL ?? 'http://localhost:16686';
  const requestId = REQUEST_ID.test(arg) && !arg.includes(' ') ? arg : await ask(arg);
  const trace = await findTrace(jaeger, requestId);
  if (!trace) {
    process.stderr.write(`Nenhum trace com cota.request_id=${requestId} no Jaeger (${jaeger}) na última hora: os serviços exportam com OTEL_EXPORTER_OTLP_ENDPOINT definido?\n`);
    process.exit(1);
  }
  process.stdout.write(`request_id ${requestId}\n${renderTrace(trace)}\n\nNo Jaeger: ${jaeger.replace(/\/+$/, '')}/trace/${trace.traceID}\n`);
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  });
}
