// Builds the chat page (apps/web) into static files: dist/apps/web/index.html and
// dist/apps/web/assets/{app.js,app.css,favicon.svg}. The gateway serves them at `/` and `/assets/*`.
// Everything is bundled locally (Chart.js included): no CDN, no inline script, so the page runs
// under `script-src 'self'`. The measure catalog's units and labels (policies/measures.yaml) are
// built in, so the charts format R$, % and points the way the answers do.
//
//   node apps/web/build.mjs            one build
//   node apps/web/build.mjs --watch    rebuild on change (development)
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { parse } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const src = join(here, 'src');
const out = join(root, 'dist', 'apps', 'web');
const watch = process.argv.includes('--watch');

/** {measure: {unit, label, kind}} from the measure catalog; a bad file stops the build, naming it. */
function measureCatalog() {
  const file = join(root, 'policies', 'measures.yaml');
  const doc = parse(readFileSync(file, 'utf8'));
  const measures = doc?.measures;
  if (!measures || typeof measures !== 'object') throw new Error(`${file}: 'measures' is missing`);
  const catalog = {};
  for (const [name, m] of Object.entries(measures)) {
    if (!m || typeof m.unit !== 'string' || typeof m.label !== 'string') throw new Error(`${file}: measures.${name} needs 'unit' and 'label'`);
    catalog[name] = { unit: m.unit, label: m.label, kind: typeof m.kind === 'string' ? m.kind : undefined };
  }
  return catalog;
}

function copyStatic() {
  mkdirSync(join(out, 'assets'), { recursive: true });
  copyFileSync(join(src, 'index.html'), join(out, 'index.html'));
  copyFileSync(join(src, 'favicon.svg'), join(out, 'assets', 'favicon.svg'));
}

const options = {
  entryPoints: [
    { in: join(src, 'main.ts'), out: 'app' },
    { in: join(src, 'styles.css'), out: 'app' },
  ],
  outdir: join(out, 'assets'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  minify: !watch,
  sourcemap: 'linked',
  legalComments: 'linked',
  define: { __COTA_MEASURES__: JSON.stringify(measureCatalog()) },
  logLevel: 'warning',
  plugins: [
    {
      name: 'cota-static',
      setup(build) {
        build.onEnd((result) => {
          if (!result.errors.length) copyStatic();
        });
      },
    },
  ],
};

rmSync(out, { recursive: true, force: true });
if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
  process.stdout.write(`apps/web: watching, writing to ${out}\n`);
} else {
  await esbuild.build(options);
  process.stdout.write(`apps/web: built ${out}\n`);
}
