// Lint: TypeScript recommended rules; warnings inform, errors fail CI.
//
// Module boundaries (@nx/enforce-module-boundaries, from the tags in each project.json). Two axes:
//   type:  app → feature → domain → platform → contracts → util; a project imports its own layer
//          (apps excepted) or a lower one, never a higher one and never an app.
//            util       pure helpers, no I/O (text, finance)
//            contracts  bus messages, subjects, tool arguments; only util beneath it
//            platform   runtime plumbing without domain (config, messaging, service-kit, llm)
//            domain     domain logic shared by several services (catalog, periods, tool-gating, warehouse)
//            feature    one service's logic (access, orchestration, planning, conversation, retrieval,
//                       narration, tools, mail)
//            app        deployables (apps/*); cli (the launcher and one-off commands) may use any lib
//   scope: a service's scope (scope:gateway, scope:planner, …) reaches itself and scope:shared;
//          scope:shared reaches only itself; scope:web (the browser bundle) reaches itself and the
//          libraries that run in a browser.
//   runtime:browser: a library the browser bundle may use (libs/text): it imports only libraries
//          that also run there (a Node built-in fails the bundle's build, apps/web/build.mjs).
// The rule reads the project graph Nx cached in .nx/ and is skipped when there is none: `npm run lint`
// has Nx compute it first (`nx lint` and the boundary spec do it themselves).
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const LAYERS = ['type:util', 'type:contracts', 'type:platform', 'type:domain', 'type:feature'];
const SERVICE_SCOPES = ['gateway', 'planner', 'context', 'tool-gate', 'executor', 'rag', 'narrator'];

const boundaries = {
  // Entry points register the `@cota/*` resolver before any alias can resolve, and the OpenTelemetry
  // instrumentation before pg, ioredis or express load, so they import both by path.
  allow: ['^(\\.\\./)+libs/service-kit/src/(register-paths|instrument)$'],
  depConstraints: [
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: LAYERS },
    { sourceTag: 'type:cli', onlyDependOnLibsWithTags: LAYERS },
    { sourceTag: 'type:feature', onlyDependOnLibsWithTags: LAYERS },
    { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:util', 'type:contracts', 'type:platform', 'type:domain'] },
    { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:util', 'type:contracts', 'type:platform'] },
    { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:util'] },
    { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
    ...SERVICE_SCOPES.map((s) => ({ sourceTag: `scope:${s}`, onlyDependOnLibsWithTags: [`scope:${s}`, 'scope:shared'] })),
    { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
    { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:web', 'runtime:browser'] },
    { sourceTag: 'runtime:browser', onlyDependOnLibsWithTags: ['runtime:browser'] },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.cota/**', '.nx/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'error',
      '@nx/enforce-module-boundaries': ['error', boundaries],
    },
  },
  {
    // The launcher runs the seven services in one process: it alone imports the apps' service definitions.
    files: ['cli/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', { ...boundaries, allow: [...boundaries.allow, '../apps/**'] }] },
  },
);
