/**
 * Resolves the `@cota/<lib>` aliases of tsconfig.base.json in the compiled tree (dist/libs/<lib>/src).
 *
 * A side-effect module, not exported from the index: every runtime entry point (apps/<service>/src/main.ts,
 * cli/*.ts through cli/register-paths.ts) imports it first, by relative path, since no alias resolves yet.
 * That relative import is the one exception eslint.config.mjs allows; this file uses no alias itself.
 */
import { join, resolve } from 'node:path';
import { register } from 'tsconfig-paths';

/** dist/, from dist/libs/service-kit/src. */
const distRoot = resolve(__dirname, '..', '..', '..');
register({ baseUrl: distRoot, paths: { '@cota/*': [join('libs', '*', 'src', 'index.js')] } });
