import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { repoRoot } from '@cota/config';

/** One built file of the chat page, held in memory (the whole page is a few hundred KB). */
export interface WebAsset {
  body: Buffer;
  contentType: string;
  etag: string;
}

/** The chat page built by apps/web (`npm run build`): index.html and the files under /assets/. */
export interface WebAssets {
  dir: string;
  index: WebAsset;
  assets: Map<string, WebAsset>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** Names an asset may have: flat, no path separators, no dot files. */
export const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** Where `npm run build` writes the page (apps/web/build.mjs). */
export function webDir(): string {
  return join(repoRoot(), 'dist', 'apps', 'web');
}

function asset(path: string): WebAsset {
  const body = readFileSync(path);
  return {
    body,
    contentType: TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
}

/**
 * Loads the built page once, at start: only the files present then are ever served (a fixed list,
 * so no request path reaches the file system). Null when the page was not built.
 */
export function loadWebAssets(dir = webDir()): WebAssets | null {
  const indexPath = join(dir, 'index.html');
  if (!existsSync(indexPath)) return null;
  const assets = new Map<string, WebAsset>();
  const assetDir = join(dir, 'assets');
  if (existsSync(assetDir)) {
    for (const name of readdirSync(assetDir)) {
      const path = join(assetDir, name);
      if (ASSET_NAME.test(name) && statSync(path).isFile() && TYPES[extname(name).toLowerCase()]) assets.set(name, asset(path));
    }
  }
  return { dir, index: asset(indexPath), assets };
}
