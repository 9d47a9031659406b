import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { launchChromium, TestBrowser } from './chromium';
import { repoRoot } from '@cota/config';
import { FakeChatRequest, FakeOpenAi, freePort, startFakeOpenAi } from '@cota/test-support';

/**
 * The chat page in a real browser (Debian's headless Chromium driven by playwright-core; no browser
 * is ever downloaded) against the README's first command: `npm start` in embedded mode, as a child
 * process of the compiled tree, first run (no COTA_DEMO_KEYS). A local OpenAI-compatible fake writes
 * the narrator's text slowly, so streamed answers are seen arriving.
 * `COTA_SCREENSHOTS=1` writes the screenshots into docs/screenshots (else into a temporary folder).
 */
const OPS = 'token-de-operacao-do-teste-web';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const SHOTS = process.env.COTA_SCREENSHOTS === '1' ? join(repoRoot(), 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), 'cota-shots-'));

let child: ChildProcess;
let out = '';
let base: string;
let llm: FakeOpenAi;
let browser: TestBrowser;
let page: Page;

/** A faithful model: two sentences, the second the deterministic answer's first line. */
function model(req: FakeChatRequest) {
  const prompt = req.messages.map((m) => m.content).join('\n');
  const body = /<<<\n([\s\S]*?)\n>>>/.exec(prompt)?.[1];
  if (!body) return { reply: 'Não sei.' };
  return { reply: `Claro, vamos lá. ${body.split('\n')[0]}`, pieceDelayMs: 60 };
}

beforeAll(async () => {
  const entry = join(repoRoot(), 'dist', 'cli', 'start.js');
  if (!existsSync(entry) || !existsSync(join(repoRoot(), 'dist', 'apps', 'web', 'index.html'))) throw new Error('dist/ is missing: run `npm run build` first');
  mkdirSync(SHOTS, { recursive: true });
  llm = await startFakeOpenAi(model);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    COTA_EMBEDDED_STORE: 'memory',
    COTA_LOG_LEVEL: 'warn',
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_MODEL: 'fake-model',
  };
  for (const v of ['NATS_URL', 'DATABASE_URL', 'REDIS_URL', 'OPENAI_API_KEY', 'COTA_DEMO_KEYS', 'SMTP_URL', 'COTA_OPS_TOKEN']) delete env[v];
  env.COTA_OPS_TOKEN = OPS; // the feedback export (GET /ops/feedback_export)
  child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c) => (out += c));
  child.stderr?.on('data', (c) => (out = (out + c).slice(-20_000)));
  const until = Date.now() + 240_000;
  while (!out.includes('Cota pronta')) {
    if (child.exitCode !== null) throw new Error(`embedded start exited: ${out}`);
    if (Date.now() > until) throw new Error(`embedded start did not become ready: ${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }

  browser = await launchChromium(DESKTOP);
  page = browser.page;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
  await llm?.close();
});

/** Sends a question as a person does (type, Enter) and waits for its answer card. */
async function ask(question: string): Promise<Locator> {
  const before = await page.locator('.msg.bot').count();
  await page.fill('#q', question);
  await page.press('#q', 'Enter');
  return answerAt(before);
}

async function answerAt(index: number): Promise<Locator> {
  // Locators, not evaluated strings: the page's CSP (no 'unsafe-eval') refuses those.
  await page.locator('.msg.bot:not(.pending)').nth(index).waitFor({ timeout: 60_000 });
  return page.locator('.msg.bot').nth(index);
}

/** What the test reads of a canvas (the test's TypeScript has no DOM types). */
interface CanvasLike {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}

/** Non-transparent pixels of a canvas (runs in the page: self-contained). */
function paintedPixels(c: CanvasLike): number {
  const data = c.width ? c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data : null;
  let n = 0;
  if (data) for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
  return n;
}

/** The value of `read` once `ok` accepts it (or the last one read when time runs out). */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A screenshot of the page, or of one element: the viewport grows to hold the element whole (the
 * conversation scrolls inside the page), then returns to its size.
 */
async function shot(name: string, target?: Locator, viewportHeight?: number): Promise<void> {
  const size = page.viewportSize()!;
  const box = target ? await target.boundingBox() : null;
  const height = viewportHeight ?? (box ? Math.min(3000, Math.ceil(box.height) + 260) : size.height);
  if (height > size.height) await page.setViewportSize({ width: size.width, height });
  try {
    if (target) await target.scrollIntoViewIfNeeded();
    else await page.locator('#log').evaluate((log: { scrollTop: number; scrollHeight: number }) => (log.scrollTop = log.scrollHeight));
    await page.waitForTimeout(600); // scrolling and chart animations end
    if (target) await target.screenshot({ path: join(SHOTS, name) });
    else await page.screenshot({ path: join(SHOTS, name) });
  } finally {
    await page.setViewportSize(size);
  }
}

async function newConversation(): Promise<void> {
  await page.click('#new-conv');
  await page.waitForSelector('.welcome');
}

/** The axe-core source, injected into the page for the accessibility audit. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// The functions below run in the page (self-contained); the test's TypeScript has no DOM types.
/* eslint-disable @typescript-eslint/no-explicit-any */

/** What is wrong with the layout on screen, found by element geometry (runs in the page). */
function layoutProblems(): string[] {
  const w = globalThis as any;
  const doc = w.document;
  const out: string[] = [];
  const name = (el: any) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}`;
  const visible = (el: any) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && w.getComputedStyle(el).visibility !== 'hidden';
  };
  if (doc.documentElement.scrollWidth > w.innerWidth + 1) out.push(`a página rola na horizontal (${doc.documentElement.scrollWidth} > ${w.innerWidth})`);
  // Nothing sticks out of an answer card (a wide table scrolls inside its own box).
  for (const card of doc.querySelectorAll('.msg.bot')) {
    const c = card.getBoundingClientRect();
    for (const el of card.querySelectorAll('*')) {
      if (!visible(el) || (el.closest('.table-wrap') && !el.classList.contains('table-wrap'))) continue;
      const r = el.getBoundingClientRect();
      if (r.right > c.right + 1 || r.left < c.left - 1)
        out.push(`${name(el)} sai do cartão (${Math.round(r.left)}..${Math.round(r.right)} fora de ${Math.round(c.left)}..${Math.round(c.right)})`);
    }
  }
  // A table wider than its box says so.
  for (const wrap of doc.querySelectorAll('.msg.bot .table-wrap')) {
    if (wrap.scrollWidth > wrap.clientWidth + 1) {
      const hint = wrap.previousElementSibling;
      if (!hint || !hint.classList.contains('scroll-hint') || !visible(hint)) out.push('tabela cortada sem aviso de rolagem');
    }
  }
  // The header's controls do not overlap.
  const controls = [...doc.querySelectorAll('header button, header .who-label')].filter(visible);
  for (let i = 0; i < controls.length; i++)
    for (let j = i + 1; j < controls.length; j++) {
      const a = controls[i].getBoundingClientRect();
      const b = controls[j].getBoundingClientRect();
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1)
        out.push(`${name(controls[i])} sobrepõe ${name(controls[j])}`);
    }
  // Charts: their own layout of axis labels and legend (recorded by the page after drawing).
  for (const fig of doc.querySelectorAll('figure.chart')) {
    const d = fig.dataset;
    const title = fig.querySelector('figcaption')?.textContent ?? '';
    if (d.xLabelGap !== undefined && Number(d.xLabelGap) < 0) out.push(`rótulos do eixo x sobrepostos em "${title}" (${d.xLabelGap} px)`);
    if (Number(d.xLabelClipped ?? 0) > 0) out.push(`rótulos do eixo x cortados em "${title}"`);
    if (Number(d.legendClipped ?? 0) > 0) out.push(`legenda cortada em "${title}" (${d.legendClipped} de ${d.legendItems})`);
    const f = fig.getBoundingClientRect();
    const canvas = fig.querySelector('canvas').getBoundingClientRect();
    if (canvas.right > f.right + 1) out.push(`gráfico "${title}" maior que o cartão`);
  }
  return out;
}

/** Controls a finger cannot hit: visible buttons, inputs and summaries under 44 px (runs in the page). */
function smallTouchTargets(): string[] {
  const w = globalThis as any;
  const out: string[] = [];
  for (const el of w.document.querySelectorAll('header button, #workspace button, #workspace input, #workspace textarea, #workspace summary')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || w.getComputedStyle(el).visibility === 'hidden') continue;
    if (r.height < 44 - 0.5 || r.width < 44 - 0.5)
      out.push(`${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
}

/** axe-core's violations of WCAG 2.1 A/AA on the page as it is now. */
async function axeViolations(): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const w = globalThis as any;
    const result = await w.axe.run(w.document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 3).map((n: any) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`.slice(0, 300)),
    }));
  });
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const serious = (vs: Array<{ impact: string }>) => vs.filter((v) => v.impact === 'serious' || v.impact === 'critical');

/** Text of the bubbles and answer cards on screen, in order. */
async function transcript(): Promise<string[]> {
  return page.locator('.msg.me .bubble, .msg.bot .answer-text').allTextContents();
}

async function exportedFeedback(): Promise<Array<{ id: string; category: string; turns: Array<{ q: string }>; evidence: string }>> {
  const res = await fetch(`${base}/ops/feedback_export?rating=down`, { headers: { authorization: `Bearer ${OPS}` } });
  expect(res.status).toBe(200);
  const text = await res.text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe('the chat page in Chromium', () => {
  it('first run: serves the page under a strict CSP and logs in with the demo button', async () => {
    const res = await page.goto(`${base}/`);
    const headers = res!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).not.toMatch(/unsafe-inline|nonce-/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-powered-by']).toBeUndefined();

    await page.waitForSelector('#demo-login:visible');
    expect(await page.locator('#demo-client').textContent()).toBe('cliente-demo-1');
    await shot('01-login.png');
    await page.fill('#demo-nick', 'Ana');
    await page.click('#demo-login');
    await page.waitForSelector('.welcome');
    expect(await page.locator('#who-label').textContent()).toBe('cliente-demo-1 (demonstração)');
    expect(await page.locator('.welcome .chip').count()).toBeGreaterThan(3);
  });

  it('follows a three-turn conversation about one fund without repeating the ticker', async () => {
    const first = await ask('CNPJ do HGLG11?');
    expect(await first.locator('.answer-text').textContent()).toContain('11.728.688/0001-47');

    const second = await ask('Esse fundo tem Sharpe bom?');
    const secondText = (await second.locator('.answer-text').textContent()) ?? '';
    expect(secondText).toContain('HGLG11');
    expect(secondText).toMatch(/Sharpe/);
    expect(await second.locator('.meta-line').textContent()).toContain('fundo herdado da conversa');

    const third = await ask('E os dividendos dele no último semestre?');
    const thirdText = (await third.locator('.answer-text').textContent()) ?? '';
    expect(thirdText).toContain('HGLG11');
    expect(thirdText).toMatch(/dividendos/i);
    expect(await third.locator('.meta-line').textContent()).toMatch(/continuação da pergunta anterior|fundo herdado da conversa/);
    await shot('02-follow-up.png', undefined, 1500);

    // The explain panel: what the follow-up inherited, the planner's reading, timings; never SQL.
    await third.locator('details.explain > summary').click();
    const panel = third.locator('details.explain');
    expect(await panel.getAttribute('open')).not.toBeNull();
    const text = (await panel.textContent()) ?? '';
    expect(text).toContain('Pergunta estruturada');
    expect(text).toContain('Conversa (o que foi herdado)');
    expect(text).toMatch(/Herdou\s*fundos e assuntos/);
    expect(text).toContain('últimos 6 meses');
    expect(text).toContain('Dados e parâmetros');
    expect(text).toContain('Dividendos por cota');
    expect(text).not.toMatch(/\bSELECT\b|\bFROM wh_/i);
    // No internal name where a person reads: no entity id, code or English debug reason.
    expect(text).not.toMatch(/fiis?_|llm_|not_needed|inherited_last|\bfeatures\b|edited the previous/);
    expect(await third.locator('.meta-line').textContent()).not.toMatch(/fiis?_|_/);
    expect(await panel.locator('.x-timings .t-row').count()).toBeGreaterThan(2);
    await shot('03-explain.png', panel);
  });

  it('draws a chart from the rows of a dividend-history answer', async () => {
    await newConversation();
    const card = await ask('dividendos do HGLG11 nos últimos 12 meses');
    const figure = card.locator('figure.chart');
    await figure.waitFor();
    expect(await figure.getAttribute('data-chart-type')).toBe('bar');
    expect(Number(await figure.getAttribute('data-points'))).toBeGreaterThanOrEqual(12);
    expect(await figure.locator('figcaption').textContent()).toContain('HGLG11');
    const label = (await figure.locator('canvas').getAttribute('aria-label')) ?? '';
    expect(label).toMatch(/^Gráfico de barras: Dividendos por cota por mês: HGLG11\./);
    expect(label).toMatch(/R\$ \d+,\d{2}/);
    // Something was drawn on the canvas (not a blank box).
    expect(
      await until(
        () => figure.locator('canvas').evaluate(paintedPixels),
        (n) => n > 2000,
      ),
    ).toBeGreaterThan(2000);
    await shot('04-dividend-chart.png', card);
  });

  it('asks before sending an e-mail: Confirmar works once, then both buttons are disabled', async () => {
    await newConversation();
    const briefing = await ask('o que temos pra hoje?');
    expect(await briefing.getAttribute('data-status')).toBe('ok');
    const pending = await ask('manda por e-mail');
    expect(await pending.getAttribute('data-status')).toBe('confirmation_required');
    expect(await pending.locator('.status-tag').textContent()).toBe('Aguardando sua confirmação');
    expect(await pending.locator('.answer-text').textContent()).toMatch(/relatório/);
    const yes = pending.locator('button[data-confirm="yes"]');
    const no = pending.locator('button[data-confirm="no"]');
    expect(await yes.textContent()).toBe('Confirmar');
    expect(await no.textContent()).toBe('Cancelar');

    const before = await page.locator('.msg.bot').count();
    await yes.click();
    expect(await yes.isDisabled()).toBe(true);
    expect(await no.isDisabled()).toBe(true);
    const done = await answerAt(before);
    expect(await page.locator('.msg.me .bubble').last().textContent()).toBe('sim');
    expect(await done.locator('.answer-text').textContent()).toMatch(/guardado|enviado/);
    // A second click does nothing (the button is disabled; forced, the page still sends nothing).
    await yes.click({ force: true });
    await page.waitForTimeout(500);
    expect(await page.locator('.msg.bot').count()).toBe(before + 1);
    await shot('05-confirmation.png', undefined, 1000);
  });

  it('shows a streamed answer as it arrives, then the whole answer', async () => {
    await newConversation();
    const before = await page.locator('.msg.bot').count();
    await page.fill('#q', 'Qual o CNPJ do KNRI11?');
    await page.press('#q', 'Enter');
    // The model's first sentence is on screen while the rest is still being written.
    await page.waitForSelector('.msg.bot.streaming', { timeout: 30_000 });
    expect(await page.locator('.msg.bot.streaming .answer-text').textContent()).toContain('Claro, vamos lá.');
    const card = await answerAt(before);
    expect(Number(await card.getAttribute('data-deltas'))).toBeGreaterThan(0);
    expect(await card.locator('.answer-text').textContent()).toContain('12.005.956/0001-65');
    expect(await card.locator('.meta-line').textContent()).toContain('texto revisado por IA');
  });

  it('compares funds side by side with the winner of each measure marked', async () => {
    await newConversation();
    const card = await ask('compare HGLG11, KNRI11 e XPML11');
    const cards = card.locator('.compare .cmp-card');
    expect(await cards.count()).toBe(3);
    expect(await cards.nth(0).locator('.cmp-head strong').textContent()).toBe('HGLG11');
    expect(await card.locator('.compare dd.winner').count()).toBeGreaterThan(2);
    expect(await card.locator('.compare .badge').first().textContent()).toMatch(/★ (maior|menor)/);
    // The answer leads with what the comparison found, before any fund's description.
    expect(await card.locator(':scope > *').first().getAttribute('class')).toBe('finding');
    expect(await card.locator('.finding').textContent()).toMatch(/^Resultado da comparação: .*(HGLG11|KNRI11|XPML11).*(maior|menor)/);
    await shot('06-compare.png', card);

    const dy = await ask('compare o DY do HGLG11 e do KNRI11');
    expect(await dy.locator('.compare .cmp-card').count()).toBe(2);
    expect(await dy.locator('.compare dd.winner').count()).toBe(1);
    expect(await dy.locator('figure.chart').getAttribute('data-chart-type')).toBe('bar');
  });

  it('draws the portfolio weights and the income per month', async () => {
    await newConversation();
    const card = await ask('minha carteira');
    await card.locator('figure.chart[data-chart-type="doughnut"]').waitFor();
    expect(await card.locator('figure.chart').count()).toBe(2);
    // The card says what the portfolio cost, what it is worth and the gain or loss, in total and per fund.
    expect(await card.textContent()).toMatch(/vale R\$ [\d.,]+ \(preços até \d{2}\/\d{2}\/\d{4}\), custou R\$ [\d.,]+ \(resultado não realizado de -?R\$ [\d.,]+\)/);
    const headers = await card.locator('table th').allTextContents();
    expect(headers.slice(0, 5)).toEqual(['Ticker', 'Quantidade de cotas', 'Valor investido', 'Valor de mercado', 'Ganho/perda']);
    await shot('07-portfolio.png', card);
    const income = await ask('renda mensal da minha carteira');
    const figure = income.locator('figure.chart');
    expect(await figure.getAttribute('data-chart-type')).toBe('bar');
    expect(await figure.locator('figcaption').textContent()).toBe('Proventos recebidos por mês');
  });

  it('restores the conversation after a reload and continues it about the fund on screen', async () => {
    await newConversation();
    await ask('CNPJ do HGLG11?');
    await ask('Esse fundo tem Sharpe bom?');
    await page.reload();
    await page.waitForSelector('.msg.bot.restored');
    const seen = await transcript();
    expect(seen).toHaveLength(4);
    expect(seen[0]).toBe('CNPJ do HGLG11?');
    expect(seen[1]).toContain('11.728.688/0001-47');
    expect(seen[2]).toBe('Esse fundo tem Sharpe bom?');
    expect(seen[3]).toContain('HGLG11');
    // The restored answers keep their kind of answer and the 👍/👎.
    expect(await page.locator('.msg.bot.restored .meta-line').first().textContent()).toMatch(/^Cadastro do fundo · \d{2}\/\d{2}\/\d{4} às/);
    expect(await page.locator('.msg.bot.restored .feedback').count()).toBe(2);
    const next = await ask('e o dy dele?');
    expect(await next.locator('.answer-text').textContent()).toMatch(/HGLG11[\s\S]*(DY|dividend yield)|(DY|dividend yield)[\s\S]*HGLG11/i);
    expect(await next.locator('.meta-line').textContent()).toMatch(/fundo herdado da conversa|continuação da pergunta anterior/);
  });

  it('lists the conversations newest first, switches to an older one, renames and deletes', async () => {
    await page.waitForSelector('#conv-list .conv-item');
    const titles = await page.locator('#conv-list .conv-title').allTextContents();
    expect(titles[0]).toBe('CNPJ do HGLG11?');
    expect(titles).toContain('dividendos do HGLG11 nos últimos 12 meses');
    expect(await page.locator('#conv-list .conv-open[aria-current="true"] .conv-title').textContent()).toBe('CNPJ do HGLG11?');

    // An older conversation: its turns come back and the next question continues it.
    await page.locator('#conv-list .conv-open', { hasText: 'dividendos do HGLG11 nos últimos 12 meses' }).click();
    await page.waitForSelector('.msg.bot.restored');
    expect((await transcript())[0]).toBe('dividendos do HGLG11 nos últimos 12 meses');
    expect(await page.locator('#conv-list .conv-open[aria-current="true"] .conv-title').textContent()).toBe('dividendos do HGLG11 nos últimos 12 meses');
    await shot('08-conversations.png');

    // Renamed in place.
    const item = page.locator('#conv-list .conv-item', { hasText: 'dividendos do HGLG11 nos últimos 12 meses' });
    await item.locator('.conv-rename').click();
    await page.fill('#conv-list .conv-input', 'Renda do HGLG11');
    await page.press('#conv-list .conv-input', 'Enter');
    await page.waitForSelector('#conv-list .conv-title:text-is("Renda do HGLG11")');
    await page.reload();
    await page.waitForSelector('#conv-list .conv-title:text-is("Renda do HGLG11")');

    // Deleted: gone from the list; the page starts a fresh conversation.
    const before = await page.locator('#conv-list .conv-item').count();
    await page.locator('#conv-list .conv-item', { hasText: 'Renda do HGLG11' }).locator('.conv-delete').click();
    await page.locator('#conv-list .conv-confirm button.danger').click();
    await page.waitForSelector('.welcome');
    expect(
      await until(
        () => page.locator('#conv-list .conv-item').count(),
        (n) => n === before - 1,
      ),
    ).toBe(before - 1);
    expect(await page.locator('#conv-list .conv-title').allTextContents()).not.toContain('Renda do HGLG11');
  });

  it('"Nova conversa" starts with nothing inherited', async () => {
    // The newest of the two conversations about HGLG11 (the one continued with "e o dy dele?").
    await page.locator('#conv-list .conv-open', { hasText: 'CNPJ do HGLG11?' }).first().click();
    await page.waitForSelector('.msg.bot.restored');
    await newConversation();
    const fresh = await ask('e o dy dele?');
    // No fund to inherit: Cota asks which one.
    expect(await fresh.getAttribute('data-status')).toBe('needs_clarification');
    expect(await fresh.locator('.answer-text').textContent()).toMatch(/qual fundo/i);
    expect(await fresh.locator('.meta-line').textContent()).not.toMatch(/herdado|continuação/);
  });

  it('takes a 👎 with a comment, which the ops export turns into an answer-eval case', async () => {
    await newConversation();
    const card = await ask('qual o dy do KNRI11?');
    await card.locator('.fb[data-rating="down"]').click();
    await card.locator('.fb-status:text("Obrigado")').waitFor();
    expect(await card.locator('.fb[data-rating="down"]').getAttribute('aria-pressed')).toBe('true');
    await card.locator('.fb-text').fill('Esperava o DY dos últimos 12 meses com a data.');
    await card.locator('.fb-comment button[type="submit"]').click();
    await card.locator('.fb-status:text("Comentário enviado")').waitFor();
    const cases = await exportedFeedback();
    const mine = cases.find((c) => c.evidence.includes('Esperava o DY dos últimos 12 meses com a data.'));
    expect(mine).toBeDefined();
    expect(mine!.category).toBe('feedback_down');
    expect(mine!.turns.map((t) => t.q)).toEqual(['qual o dy do KNRI11?']);
  });

  it('offers next questions from the reading, and one click asks it', async () => {
    await newConversation();
    const card = await ask('CNPJ do KNRI11?');
    const chips = card.locator('.next .chip');
    const offered = await chips.allTextContents();
    expect(offered).toContain('dividendos do KNRI11 nos últimos 12 meses');
    for (const t of offered.flatMap((q) => q.match(/\b[A-Z]{4}11\b/g) ?? [])) expect(t).toBe('KNRI11');
    const before = await page.locator('.msg.bot').count();
    await chips.filter({ hasText: 'dividendos do KNRI11 nos últimos 12 meses' }).click();
    const answer = await answerAt(before);
    expect(await page.locator('.msg.me .bubble').last().textContent()).toBe('dividendos do KNRI11 nos últimos 12 meses');
    expect(await answer.getAttribute('data-status')).toBe('ok');
    expect(await answer.locator('figure.chart').count()).toBeGreaterThan(0);
    // The data is older than a few days: the card says so, with its date.
    expect(await answer.locator('.freshness').textContent()).toMatch(/Dados até \d{2}\/\d{2}\/\d{4}/);
  });

  it('lays out on a phone (390×844): readable axes, whole legends, tables that scroll with a hint, 16 px input, 44 px targets', async () => {
    await page.setViewportSize(PHONE);
    try {
      await newConversation();
      await ask('evolução do preço do KNRI11 em 2024');
      await ask('dividendos do HGLG11 nos últimos 12 meses');
      const portfolio = await ask('minha carteira');
      await portfolio.locator('figure.chart[data-chart-type="doughnut"]').waitFor();
      const briefing = await ask('o que temos pra hoje?');
      await page.waitForTimeout(600); // charts drawn, their geometry recorded
      for (const fig of await page.locator('figure.chart').all())
        expect((await fig.getAttribute('data-x-label-gap')) ?? (await fig.getAttribute('data-legend-items'))).not.toBeNull();
      expect(await page.locator('figure.chart[data-chart-type="doughnut"]').first().getAttribute('data-legend-clipped')).toBe('0');
      expect(await page.evaluate(layoutProblems)).toEqual([]);
      expect(await page.evaluate(smallTouchTargets)).toEqual([]);
      expect(await page.locator('#q').evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string } }).getComputedStyle(el).fontSize)).toBe(
        '16px',
      );
      // The briefing's wide table scrolls inside its box, with the hint shown.
      const wrap = briefing.locator('.table-wrap').first();
      if (await wrap.count()) {
        const [scroll, client] = await wrap.evaluate((el: { scrollWidth: number; clientWidth: number }) => [el.scrollWidth, el.clientWidth]);
        if (scroll > client) expect(await briefing.locator('.scroll-hint').first().isVisible()).toBe(true);
      }
      await shot('09-phone-chart.png', page.locator('.msg.bot').nth(-4));
      await shot('10-phone-portfolio.png', portfolio);
      // The conversation list is a drawer: open, usable by touch, closed with Escape.
      await page.click('#toggle-convs');
      await page.locator('#convs.open').waitFor();
      expect(await page.evaluate(smallTouchTargets)).toEqual([]);
      expect(serious(await axeViolations())).toEqual([]);
      await shot('11-phone-conversations.png');
      await page.keyboard.press('Escape');
      expect(await page.locator('#toggle-convs').getAttribute('aria-expanded')).toBe('false');
      expect(serious(await axeViolations())).toEqual([]);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('lays out at 1280×800 with nothing clipped, and passes an accessibility audit (axe-core)', async () => {
    await page.setViewportSize(DESKTOP);
    await newConversation();
    const briefing = await ask('o que temos pra hoje?');
    await ask('compare HGLG11, KNRI11 e XPML11');
    await briefing.locator('details.explain > summary').click();
    await page.waitForTimeout(400);
    expect(await page.evaluate(layoutProblems)).toEqual([]);
    const violations = await axeViolations();
    expect(serious(violations)).toEqual([]);
    // Keyboard only: Tab reaches the question box and focus is visible.
    await page.locator('#new-conv').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    const outline = await page
      .locator('#new-conv')
      .evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string } }).getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe('none');
    await shot('12-desktop.png');
  });

  it('logged no error in the browser (no CSP violation, no script error)', () => {
    expect(browser.problems).toEqual([]);
  });

  it('gets a new demo key when the stored one stopped working (a restart with a fresh store)', async () => {
    await page.evaluate(() =>
      (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('cota.key', 'cota_chave_que_nao_existe_mais'),
    );
    await page.reload();
    // The conversation on screen before the restart is read back with the new key.
    await page.waitForSelector('.msg.bot.restored');
    const card = await ask('CNPJ do HGLG11?');
    expect(await card.getAttribute('data-status')).toBe('ok');
    expect(await card.locator('.answer-text').textContent()).toContain('11.728.688/0001-47');
  });

  it('asks for an API key where there is no demo login', async () => {
    const keys = [...out.matchAll(/client_id=(\S+)\s+chave=(\S+)/g)].map((m) => ({ clientId: m[1], key: m[2] }));
    expect(keys.map((k) => k.clientId)).toContain('cliente-demo-2');
    const bia = keys.find((k) => k.clientId === 'cliente-demo-2')!;
    await page.click('#logout');
    await page.waitForSelector('#login:visible');
    // The gateway answers 404 here outside embedded mode (unit-tested); the page is shown that answer.
    await page.route('**/demo/session', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":{"code":"not_found","message":"x"}}' }));
    await page.reload();
    await page.waitForSelector('#key:visible');
    expect(await page.locator('#demo-box').isHidden()).toBe(true);
    await page.fill('#key', 'chave-errada-123');
    await page.fill('#client', bia.clientId);
    await page.click('#key-form button[type="submit"]');
    await until(
      async () => (await page.locator('#login-error').textContent()) ?? '',
      (t) => t !== '',
    );
    expect(await page.locator('#login-error').textContent()).toContain('Chave de API desconhecida');
    await page.fill('#key', bia.key);
    await page.fill('#nick', 'Bia');
    await page.click('#key-form button[type="submit"]');
    await page.waitForSelector('.welcome');
    expect(await page.locator('#who-label').textContent()).toBe('cliente-demo-2');
    const card = await ask('CNPJ do HGLG11?');
    expect(await card.locator('.answer-text').textContent()).toContain('11.728.688/0001-47');
    await page.unroute('**/demo/session');
  });
});
