// One jest run for the whole monorepo: unit tests sit next to the code (*.spec.ts),
// integration tests (real NATS/Postgres/Redis) under test/ and as *.int.spec.ts.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.base.json');

const common = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  rootDir: __dirname,
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};

module.exports = {
  // Integration suites start real servers; the unit suites are light.
  maxWorkers: process.env.CI ? 2 : '50%',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,cli}/**/*.spec.ts'],
      testPathIgnorePatterns: ['\\.int\\.spec\\.ts$', '/node_modules/'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.int.spec.ts', '<rootDir>/{apps,libs}/**/*.int.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/integration-timeout.ts'],
    },
  ],
};
