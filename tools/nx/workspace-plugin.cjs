// Local Nx plugin (nx.json "plugins"): what every project of the workspace has in common.
//  - `test`: the project's unit specs, run by the one root jest config (`--selectProjects unit`);
//    caching and inputs come from targetDefaults.test in nx.json.
// Lint targets come from @nx/eslint/plugin, the build from cli/project.json and apps/web/project.json.
const { readdirSync } = require('node:fs');
const { dirname, join } = require('node:path');

/** Whether the directory holds a unit spec (`*.spec.ts`, not `*.int.spec.ts`) at any depth. */
function hasUnitSpecs(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && hasUnitSpecs(join(dir, entry.name))) return true;
    } else if (entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.int.spec.ts')) {
      return true;
    }
  }
  return false;
}

/** @type {import('@nx/devkit').CreateNodes} */
exports.createNodes = [
  '{apps/*,libs/*,cli}/project.json',
  (configFiles, _options, context) =>
    configFiles.map((file) => {
      const root = dirname(file);
      const project = {};
      if (hasUnitSpecs(join(context.workspaceRoot, root))) {
        project.targets = {
          test: {
            executor: 'nx:run-commands',
            // A path regex: the slashes keep `/libs/tools/` from matching libs/tool-gating or libs/tools-x.
            options: { command: `jest --config jest.config.cjs --selectProjects unit --testPathPatterns /${root}/` },
          },
        };
      }
      return [file, { projects: { [root]: project } }];
    }),
];
