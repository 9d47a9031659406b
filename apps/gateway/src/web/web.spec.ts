import 'reflect-metadata';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication, Module } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { hashApiKey, InMemoryApiKeyRepository } from '@cota/access';
import { ErrorFilter } from '../error.filter';
import { securityHeaders } from '../http/security-headers';
import { GatewayMetrics } from '../metrics';
import { DemoSession } from './demo-session';
import { loadWebAssets, WebAssets } from './web-assets';
import { WEB_ASSETS, WebController } from './web.controller';

function builtPage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cota-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html lang="pt-BR"><script src="/assets/app.js" defer></script></html>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("cota")');
  writeFileSync(join(dir, 'assets', 'app.css'), 'body{}');
  writeFileSync(join(dir, 'assets', '.secret'), 'no');
  writeFileSync(join(dir, 'assets', 'notes.exe'), 'no');
  return dir;
}

describe('loadWebAssets', () => {
  it('loads index.html and the listed asset types once, and nothing else', () => {
    const dir = builtPage();
    try {
      const web = loadWebAssets(dir)!;
      expect(web.index.contentType).toBe('text/html; charset=utf-8');
      expect([...web.assets.keys()].sort()).toEqual(['app.css', 'app.js']);
      expect(web.assets.get('app.js')!.contentType).toBe('text/javascript; charset=utf-8');
      expect(web.assets.get('app.js')!.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is null when the page was not built', () => {
    expect(loadWebAssets(join(tmpdir(), 'cota-web-nao-existe'))).toBeNull();
  });
});

describe('DemoSession', () => {
  it('hands out nothing outside embedded mode', async () => {
    const repo = new InMemoryApiKeyRepository();
    expect(await new DemoSession(repo, false).issue('127.0.0.1')).toBeNull();
    expect(repo.records.size).toBe(0);
  });

  it('makes one stored demo key of the first demo client and reuses it while it is active', async () => {
    const repo = new InMemoryApiKeyRepository();
    const demo = new DemoSession(repo, true);
    const [a, b] = await Promise.all([demo.issue('127.0.0.1'), demo.issue('127.0.0.1')]);
    expect(a).toEqual(b);
    expect(a!.client_id).toBe('cliente-demo-1');
    expect(await repo.findClientByHash(hashApiKey(a!.key))).toBe('cliente-demo-1');
    expect([...repo.records.values()].map((r) => r.source)).toEqual(['demo']);
    expect(await demo.issue('127.0.0.1')).toEqual(a);
    // Erased (DELETE /me/data) or revoked: the next login gets a new key.
    repo.records.clear();
    const c = await demo.issue('127.0.0.1');
    expect(c!.key).not.toBe(a!.key);
    expect(await repo.findClientByHash(hashApiKey(c!.key))).toBe('cliente-demo-1');
  });
});

describe('the demo login in embedded mode', () => {
  const res = { setHeader: () => undefined } as unknown as Response;
  const from = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as unknown as Request;

  it('is refused (404) to a caller from another machine, whatever its headers say', async () => {
    const repo = new InMemoryApiKeyRepository();
    const controller = new WebController(null, new DemoSession(repo, true));
    const remote = from('203.0.113.7', { 'x-forwarded-for': '127.0.0.1', host: 'localhost:3000' });
    await expect(controller.demoLogin(remote, res)).rejects.toMatchObject({ status: 404 });
    expect(() => controller.demoInfo(remote, res)).toThrow(expect.objectContaining({ status: 404 }));
    await expect(controller.demoLogin(from('::ffff:192.168.0.10'), res)).rejects.toMatchObject({ status: 404 });
    expect(repo.records.size).toBe(0);
  });

  it('is served to callers on this machine (loopback, IPv4 or IPv6)', async () => {
    const controller = new WebController(null, new DemoSession(new InMemoryApiKeyRepository(), true));
    for (const local of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect(await controller.demoLogin(from(local), res)).toMatchObject({ client_id: 'cliente-demo-1' });
      expect(controller.demoInfo(from(local), res)).toEqual({ available: true, client_id: 'cliente-demo-1' });
    }
  });
});

describe('WebController over HTTP', () => {
  let dir: string;

  async function serve(web: WebAssets | null, embedded: boolean): Promise<{ app: INestApplication; url: string; repo: InMemoryApiKeyRepository }> {
    const repo = new InMemoryApiKeyRepository();
    @Module({
      controllers: [WebController],
      providers: [
        { provide: WEB_ASSETS, useValue: web },
        { provide: DemoSession, useValue: new DemoSession(repo, embedded) },
        GatewayMetrics,
        { provide: APP_FILTER, useClass: ErrorFilter },
      ],
    })
    class TestModule {}
    const app = await NestFactory.create(TestModule, { logger: false, bodyParser: false });
    app.getHttpAdapter().getInstance().disable('x-powered-by');
    app.use(securityHeaders());
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    return { app, url: `http://127.0.0.1:${port}`, repo };
  }

  beforeAll(() => {
    dir = builtPage();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the built page under a CSP without inline script, and its assets', async () => {
    const { app, url } = await serve(loadWebAssets(dir), false);
    try {
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|nonce-/);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('x-powered-by')).toBeNull();
      expect(await page.text()).toContain('/assets/app.js');

      const js = await fetch(`${url}/assets/app.js`);
      expect(js.status).toBe(200);
      expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(js.headers.get('x-content-type-options')).toBe('nosniff');
      const again = await fetch(`${url}/assets/app.js`, { headers: { 'if-none-match': js.headers.get('etag')! } });
      expect(again.status).toBe(304);

      for (const path of ['/assets/.secret', '/assets/notes.exe', '/assets/nada.js', '/assets/..%2Findex.html', '/assets/%2e%2e%2fpackage.json']) {
        const res = await fetch(`${url}${path}`);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
      }
    } finally {
      await app.close();
    }
  });

  it('falls back to the single-file page (nonce CSP) when the page was not built', async () => {
    const { app, url } = await serve(null, false);
    try {
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
      expect(nonce).toBeDefined();
      const html = await page.text();
      expect(html).toContain('<html lang="pt-BR">');
      // The page's inline script and style carry the nonce its CSP names.
      expect(html).toContain(`<script nonce="${nonce}">`);
      expect(html).toContain(`<style nonce="${nonce}">`);
    } finally {
      await app.close();
    }
  });

  it('offers the demo login only in embedded mode', async () => {
    const off = await serve(loadWebAssets(dir), false);
    try {
      expect((await fetch(`${off.url}/demo/session`)).status).toBe(404);
      const post = await fetch(`${off.url}/demo/session`, { method: 'POST' });
      expect(post.status).toBe(404);
      expect(((await post.json()) as { error: { message: string } }).error.message).toContain('modo embutido');
      expect(off.repo.records.size).toBe(0);
    } finally {
      await off.app.close();
    }
    const on = await serve(loadWebAssets(dir), true);
    try {
      const info = await fetch(`${on.url}/demo/session`);
      expect(await info.json()).toEqual({ available: true, client_id: 'cliente-demo-1' });
      const login = await fetch(`${on.url}/demo/session`, { method: 'POST' });
      expect(login.status).toBe(200);
      expect(login.headers.get('cache-control')).toBe('no-store');
      const body = (await login.json()) as { client_id: string; key: string };
      expect(body.client_id).toBe('cliente-demo-1');
      expect(await on.repo.findClientByHash(hashApiKey(body.key))).toBe('cliente-demo-1');
    } finally {
      await on.app.close();
    }
  });
});
