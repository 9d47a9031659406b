import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { launchChromium, TestBrowser } from './chromium';
import { repoRoot } from '@cota/config';
import { freePort } from '@cota/test-support';

/**
 * A B3 statement dragged into the conversation, in Debian's headless Chromium (playwright-core, no
 * browser downloaded) against `npm start` in embedded mode from the compiled tree: the preview
 * arrives as a confirmation, "Confirmar" imports it, and the answer shows the portfolio with cost
 * and gain. `COTA_SCREENSHOTS=1` writes docs/screenshots/08-import.png.
 */
const SHOTS = process.env.COTA_SCREENSHOTS === '1' ? join(repoRoot(), 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), 'cota-shots-'));

let child: ChildProcess;
let out = '';
let base: string;
let browser: TestBrowser;
let page: Page;

beforeAll(async () => {
  const entry = join(repoRoot(), 'dist', 'cli', 'start.js');
  if (!existsSync(entry) || !existsSync(join(repoRoot(), 'dist', 'apps', 'web', 'index.html'))) throw new Error('dist/ is missing: run `npm run build` first');
  mkdirSync(SHOTS, { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), COTA_EMBEDDED_STORE: 'memory', COTA_LOG_LEVEL: 'warn' };
  for (const v of ['NATS_URL', 'DATABASE_URL', 'REDIS_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'COTA_DEMO_KEYS', 'SMTP_URL', 'COTA_OPS_TOKEN']) delete env[v];
  child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c) => (out += c));
  child.stderr?.on('data', (c) => (out = (out + c).slice(-20_000)));
  const until = Date.now() + 480_000;
  while (!out.includes('Cota pronta')) {
    if (child.exitCode !== null) throw new Error(`embedded start exited: ${out}`);
    if (Date.now() > until) throw new Error(`embedded start did not become ready: ${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  browser = await launchChromium({ width: 1100, height: 1100 });
  page = browser.page;
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
});

/** A "Negociação" export as B3's investor area writes it: 10 BTLG11 bought at R$ 100,00. */
async function statement(): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Negociação');
  ws.addRow(['Data do Negócio', 'Tipo de Movimentação', 'Mercado', 'Prazo/Vencimento', 'Instituição', 'Código de Negociação', 'Quantidade', 'Preço', 'Valor']);
  ws.addRow(['10/01/2024', 'Compra', 'Mercado à Vista', '-', 'XP INVESTIMENTOS CCTVM S/A', 'BTLG11', 10, 100, 1000]);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}

/** Drops the file on the conversation as a person drags it there (a real DataTransfer with a File, in the page). */
async function dropFile(selector: string, name: string, base64: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ b64, fileName }) => {
      // Runs in the page (the test's TypeScript has no DOM types).
      const g = globalThis as unknown as {
        atob(s: string): string;
        DataTransfer: new () => { items: { add(f: unknown): void } };
        File: new (parts: unknown[], name: string, opts: { type: string }) => unknown;
      };
      const bytes = Uint8Array.from(g.atob(b64), (c) => c.charCodeAt(0));
      const dt = new g.DataTransfer();
      dt.items.add(new g.File([bytes], fileName, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
      return dt;
    },
    { b64: base64, fileName: name },
  );
  await page.dispatchEvent(selector, 'dragenter', { dataTransfer });
  await page.dispatchEvent(selector, 'dragover', { dataTransfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer });
}

describe('a B3 statement dragged into the conversation', () => {
  it('previews, confirms and shows the portfolio with cost and gain', async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('#demo-login:visible');
    await page.click('#demo-login');
    await page.waitForSelector('.welcome');
    expect(await page.locator('#statement-button').textContent()).toBe('Enviar extrato');

    await dropFile('#chat', 'negociacao-b3.xlsx', await statement());
    const preview = page.locator('.msg.bot:not(.pending)').nth(0);
    await preview.waitFor({ timeout: 60_000 });
    expect(await page.locator('.msg.me').first().textContent()).toContain('negociacao-b3.xlsx');
    expect(await preview.getAttribute('data-status')).toBe('confirmation_required');
    const previewText = (await preview.locator('.answer-text').textContent()) ?? '';
    expect(previewText).toContain('1 negociação (1 compra) de 1 fundo (BTLG11), em 01/2024');
    expect(previewText).toContain('Posso incluir na sua carteira?');

    await preview.locator('button[data-confirm="yes"]').click();
    const done = page.locator('.msg.bot:not(.pending)').nth(1);
    await done.waitFor({ timeout: 60_000 });
    const text = (await done.locator('.answer-text').textContent()) ?? '';
    expect(text).toContain('Pronto: importei 1 lançamento de "negociacao-b3.xlsx"');
    expect(text).toContain('Sua carteira com custo e ganho');
    // The table: the new position at its cost (10 × R$ 100,00) beside the demo portfolio, with gain or loss.
    const row = done.locator('table tr', { hasText: 'BTLG11' });
    expect(await row.count()).toBe(1);
    const cells = await row.locator('td').allTextContents();
    expect(cells[1]).toBe('10');
    expect(cells[2]).toBe('R$ 100,00');
    expect(cells[3]).toBe('R$ 1.000,00');
    expect(cells[5]).toMatch(/R\$/);
    expect(await done.locator('table th').allTextContents()).toEqual(['Fundo', 'Cotas', 'Preço médio', 'Custo', 'Valor de mercado', 'Ganho/perda']);
    await done.scrollIntoViewIfNeeded();
    await page.waitForTimeout(400);
    await done.screenshot({ path: join(SHOTS, '08-import.png') });
    expect(browser.problems).toEqual([]);
  });
});
