import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The layering of eslint.config.mjs holds: a library importing a layer above it, an app or another
 * service's scope fails lint with @nx/enforce-module-boundaries; an allowed import passes. The
 * files are virtual (ESLint's lintText): only their paths place them in a project.
 */
const repoRoot = resolve(__dirname, '..');
const RULE = '@nx/enforce-module-boundaries';

interface Probe {
  filePath: string;
  code: string;
}

/**
 * Lints the probes with the ESLint Node API in a child process: ESLint loads eslint.config.mjs with
 * import(), which jest's module sandbox refuses. The rule reads the project graph Nx caches in .nx/
 * (and skips itself without one), so the child has Nx compute it first, as `npm run lint` does.
 */
const LINT_PROBES = `
const { createProjectGraphAsync } = require('@nx/devkit');
const { ESLint } = require('eslint');
(async () => {
  await createProjectGraphAsync({ exitOnError: true });
  const eslint = new ESLint({ cwd: process.cwd() });
  const results = [];
  for (const { filePath, code } of JSON.parse(process.argv[1])) {
    const [result] = await eslint.lintText(code, { filePath });
    results.push(result.messages.filter((m) => m.ruleId === ${JSON.stringify(RULE)} && m.severity === 2).map((m) => m.message));
  }
  process.stdout.write(JSON.stringify(results), () => process.exit(0));
})().catch((e) => { console.error(e); process.exit(1); });
`;

function lintProbes(probes: Probe[]): string[][] {
  const out = execFileSync(process.execPath, ['-e', LINT_PROBES, JSON.stringify(probes.map((p) => ({ ...p, filePath: resolve(repoRoot, p.filePath) })))], {
    cwd: repoRoot,
    env: { ...process.env, NX_DAEMON: 'false' },
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[][];
}

const CONTRACTS_FILE = 'libs/contracts/src/boundary-probe.ts';
const PROBES = {
  contractsUseUtil: { filePath: CONTRACTS_FILE, code: "import { normalizeText } from '@cota/text';\nexport const probe = normalizeText;\n" },
  contractsUseHigherLayer: { filePath: CONTRACTS_FILE, code: "import type { LlmClient } from '@cota/llm';\nexport type Probe = LlmClient;\n" },
  contractsUseDependent: { filePath: CONTRACTS_FILE, code: "import { Logger } from '@cota/service-kit';\nexport const probe = Logger;\n" },
  contractsUseApp: { filePath: CONTRACTS_FILE, code: "import { gatewayService } from '../../../apps/gateway/src/gateway.service';\nexport const probe = gatewayService;\n" },
  ragUsesContextLib: { filePath: 'libs/retrieval/src/boundary-probe.ts', code: "import { ContextManager } from '@cota/conversation';\nexport const probe = ContextManager;\n" },
  ragAppUsesItsLibs: {
    filePath: 'apps/rag/src/boundary-probe.ts',
    code: "import { Logger } from '@cota/service-kit';\nimport { HashingEmbedder } from '@cota/retrieval';\nexport const probe = [Logger, HashingEmbedder];\n",
  },
  webUsesText: { filePath: 'apps/web/src/lib/boundary-probe.ts', code: "import { fold } from '@cota/text';\nexport const probe = fold;\n" },
  webUsesContracts: { filePath: 'apps/web/src/lib/boundary-probe.ts', code: "import { TICKER_RE } from '@cota/contracts';\nexport const probe = TICKER_RE;\n" },
  textUsesServerUtil: { filePath: 'libs/text/src/boundary-probe.ts', code: "import { Dec } from '@cota/finance';\nexport const probe = Dec;\n" },
} satisfies Record<string, Probe>;

describe('module boundaries (lint)', () => {
  let errors: Record<keyof typeof PROBES, string[]>;

  beforeAll(() => {
    const names = Object.keys(PROBES) as Array<keyof typeof PROBES>;
    const results = lintProbes(names.map((n) => PROBES[n]));
    errors = Object.fromEntries(names.map((n, i) => [n, results[i]])) as typeof errors;
  }, 60_000);

  it('lets contracts import a util library', () => {
    expect(errors.contractsUseUtil).toEqual([]);
  });

  it('fails when contracts import a higher layer', () => {
    expect(errors.contractsUseHigherLayer).toEqual([expect.stringContaining('A project tagged with "type:contracts" can only depend on libs tagged with "type:util"')]);
  });

  it('fails when a library imports one that depends on it (a cycle)', () => {
    expect(errors.contractsUseDependent).toEqual([expect.stringContaining('Circular dependency between "contracts" and "service-kit"')]);
  });

  it('fails when a library imports an app', () => {
    expect(errors.contractsUseApp).toEqual([expect.stringContaining('Projects cannot be imported by a relative or absolute path')]);
  });

  it("fails when a service's library imports another service's", () => {
    expect(errors.ragUsesContextLib).toEqual([expect.stringContaining('A project tagged with "scope:rag" can only depend on libs tagged with "scope:rag", "scope:shared"')]);
  });

  it('lets the browser bundle import a library that runs in a browser', () => {
    expect(errors.webUsesText).toEqual([]);
  });

  it('fails when the browser bundle imports a library that does not run in a browser', () => {
    expect(errors.webUsesContracts).toEqual([expect.stringContaining('A project tagged with "scope:web" can only depend on libs tagged with "scope:web", "runtime:browser"')]);
  });

  it('fails when a library the browser runs imports one that does not run there', () => {
    expect(errors.textUsesServerUtil).toEqual([expect.stringContaining('A project tagged with "runtime:browser" can only depend on libs tagged with "runtime:browser"')]);
  });

  it('lets an app import its own and the shared libraries', () => {
    expect(errors.ragAppUsesItsLibs).toEqual([]);
  });
});
