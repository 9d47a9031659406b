import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

let cachedRoot: string | undefined;

/** The repository root: the nearest folder above this file holding `policies/` and `package.json`. */
export function repoRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = __dirname;
  for (;;) {
    if (existsSync(join(dir, 'policies')) && existsSync(join(dir, 'package.json'))) return (cachedRoot = dir);
    const up = dirname(dir);
    if (up === dir) return (cachedRoot = process.cwd());
    dir = up;
  }
}

export function policiesDir(): string {
  return process.env.COTA_POLICIES_DIR ? resolve(process.env.COTA_POLICIES_DIR) : join(repoRoot(), 'policies');
}

/** Raw source files (CONTRACT: COTA_DATA_DIR, default ../shared/data/fii from the repo). */
export function dataDir(): string {
  return process.env.COTA_DATA_DIR ? resolve(process.env.COTA_DATA_DIR) : resolve(repoRoot(), '..', 'shared', 'data', 'fii');
}

/** Golden routing questions shipped beside the data (tests read them in place). */
export function goldenDir(): string {
  return resolve(dataDir(), '..', 'golden');
}
