import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/** A headless Debian Chromium for the page's tests, with what a test needs to close it and the page's errors. */
export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors, in order. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * Debian's Chromium with a fresh profile, pt-BR and São Paulo time. The flags keep it off this
 * machine's closed network (background networking, component updates, sync, QUIC).
 */
export async function launchChromium(viewport: { width: number; height: number }): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
  const profile = mkdtempSync(join(tmpdir(), 'cota-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return {
    context,
    page,
    problems,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
