/**
 * Resolves the `@cota/<lib>` aliases of tsconfig.base.json in the compiled tree (dist/libs/<lib>/src).
 * Imported first by every runtime entry point; uses no alias itself.
 */
import { join, resolve } from 'node:path';
import { register } from 'tsconfig-paths';

const distRoot = resolve(__dirname, '..');
register({ baseUrl: distRoot, paths: { '@cota/*': [join('libs', '*', 'src', 'index.js')] } });
