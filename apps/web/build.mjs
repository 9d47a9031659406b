// Builds the chat page (apps/web) into static files: dist/apps/web/index.html and
// dist/apps/web/assets/{app.js,app.css,favicon.svg}. The gateway serves them at `/` and `/assets/*`.
// Everything is bundled locally (Chart.js included): no CDN, no inline script, so the page runs
// under `script-src 'self'`. The catalog's vocabulary is built in: each measure's unit, label and
// better direction (policies/measures.yaml), so the charts format R$, % and points the way the answers
// do and the comparison cards mark the winner the catalog's way; each entity's class
// (policies/entities/*.yaml), so only fund answers become fund cards.
//
//   node apps/web/build.mjs            one build
//   node apps/web/build.mjs --watch    rebuild on change (development)
//   node apps/web/build.mjs --if-changed   build only when an input is newer than the last build (`npm start`)
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const src = join(here, 'src');
const out = join(root, 'dist', 'apps', 'web');
const watch = process.argv.includes('--watch');
const ifChanged = process.argv.includes('--if-changed');
// esbuild's list of every file the last build read (sources, Chart.js, ...), to skip a build that would change nothing.
const inputsFile = join(out, 'inputs.json');

const BETTER = ['higher', 'lower', 'none'];
const CLASSES = ['fund', 'market', 'client'];

/** {measure: {unit, label, kind, better}} from the measure catalog; a bad file stops the build, naming it. */
function measureCatalog() {
  const file = join(root, 'policies', 'measures.yaml');
  const doc = parse(readFileSync(file, 'utf8'));
  const measures = doc?.measures;
  if (!measures || typeof measures !== 'object') throw new Error(`${file}: 'measures' is missing`);
  const catalog = {};
  for (const [name, m] of Object.entries(measures)) {
    if (!m || typeof m.unit !== 'string' || typeof m.label !== 'string') throw new Error(`${file}: measures.${name} needs 'unit' and 'label'`);
    if (!BETTER.includes(m.better)) throw new Error(`${file}: measures.${name}.better must be one of ${BETTER.join(', ')}`);
    catalog[name] = { unit: m.unit, label: m.label, kind: typeof m.kind === 'string' ? m.kind : undefined, better: m.better };
  }
  return catalog;
}

/** {entity: class} from the entity catalog (each file's `scope`); a bad file stops the build, naming it. */
function entityClasses() {
  const dir = join(root, 'policies', 'entities');
  const classes = {};
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const doc = parse(readFileSync(join(dir, name), 'utf8'));
    if (!CLASSES.includes(doc?.scope)) throw new Error(`${join(dir, name)}: 'scope' must be one of ${CLASSES.join(', ')}`);
    classes[name.replace(/\.yaml$/, '')] = doc.scope;
  }
  return classes;
}

/** "Cadastro do fundo: CNPJ, ..." -> "Cadastro do fundo": what a person reads as the kind of an answer. */
function shortLabel(description) {
  return String(description ?? '')
    .replace(/\s*\([^)]*\)/g, '')
    .split(/[:.—]/)[0]
    .trim();
}

/** {entity: label} from each entity file's description, in Portuguese (the footer never shows an entity id). */
function entityLabels() {
  const dir = join(root, 'policies', 'entities');
  const labels = {};
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const doc = parse(readFileSync(join(dir, name), 'utf8'));
    const label = shortLabel(doc?.description);
    if (!label) throw new Error(`${join(dir, name)}: 'description' is missing`);
    labels[name.replace(/\.yaml$/, '')] = label;
  }
  return labels;
}

/** {tool: label} from policies/tool_gate.yaml's descriptions, in Portuguese. */
function toolLabels() {
  const file = join(root, 'policies', 'tool_gate.yaml');
  const tools = parse(readFileSync(file, 'utf8'))?.tools;
  if (!tools || typeof tools !== 'object') throw new Error(`${file}: 'tools' is missing`);
  const labels = {};
  for (const [name, t] of Object.entries(tools)) {
    const label = shortLabel(t?.description).split(',')[0].trim();
    if (!label) throw new Error(`${file}: tools.${name}.description is missing`);
    labels[name] = label;
  }
  return labels;
}

/** The fund segments the planner reads as a filter (policies/param_inference.yaml filters.sector): the only ones a suggestion names. */
function sectors() {
  const file = join(root, 'policies', 'param_inference.yaml');
  const sector = parse(readFileSync(file, 'utf8'))?.filters?.sector;
  if (!sector || typeof sector !== 'object') throw new Error(`${file}: 'filters.sector' is missing`);
  return Object.keys(sector);
}

function copyStatic() {
  mkdirSync(join(out, 'assets'), { recursive: true });
  copyFileSync(join(src, 'index.html'), join(out, 'index.html'));
  copyFileSync(join(src, 'favicon.svg'), join(out, 'assets', 'favicon.svg'));
}

/** Whether the last build is newer than each file it read, the policies it built in and this script. */
function upToDate() {
  if (!existsSync(inputsFile) || !existsSync(join(out, 'index.html'))) return false;
  const built = statSync(inputsFile).mtimeMs;
  const read = JSON.parse(readFileSync(inputsFile, 'utf8')).map((f) => join(root, f));
  const policies = [
    join(root, 'policies', 'measures.yaml'),
    join(root, 'policies', 'entities'),
    ...readdirSync(join(root, 'policies', 'entities')).map((f) => join(root, 'policies', 'entities', f)),
  ];
  return [...read, ...policies, join(src, 'index.html'), join(src, 'favicon.svg'), fileURLToPath(import.meta.url)].every((f) => existsSync(f) && statSync(f).mtimeMs <= built);
}

if (ifChanged && upToDate()) {
  process.stdout.write(`apps/web: up to date (${out})\n`);
  process.exit(0);
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
  define: {
    __COTA_MEASURES__: JSON.stringify(measureCatalog()),
    __COTA_ENTITY_CLASSES__: JSON.stringify(entityClasses()),
    __COTA_LABELS__: JSON.stringify({ entities: entityLabels(), tools: toolLabels(), sectors: sectors() }),
  },
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

// Loaded only now: a build that is up to date never starts esbuild.
const esbuild = await import('esbuild');
rmSync(out, { recursive: true, force: true });
if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
  process.stdout.write(`apps/web: watching, writing to ${out}\n`);
} else {
  const started = new Date();
  const result = await esbuild.build({ ...options, metafile: true });
  // Paths relative to the repository; `<define:...>` entries are esbuild's own, not files.
  const read = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('<'));
  writeFileSync(inputsFile, JSON.stringify(read.map((f) => relative(root, resolve(f)))));
  // Dated when the build began, so a file saved while it ran is seen as newer next time.
  utimesSync(inputsFile, started, started);
  process.stdout.write(`apps/web: built ${out}\n`);
}
