import { availableParallelism } from 'node:os';

/** ESM + ts-jest, the combination verified on Node 20 (see shared/ARCHITECTURE.md, Toolchain facts). */
export default {
  // jest's default is cores - 1: one worker on a 2-core machine, while most files wait on subprocesses, browsers
  // and Redis. One per core (at least 2) keeps both cores busy; tests wait on events, so load does not break them.
  maxWorkers: Math.max(2, availableParallelism()),
  // Builds the shared artefacts once (tests/setup/suite-cache.ts) instead of once per file.
  globalSetup: '<rootDir>/tests/setup/global-setup.ts',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/tests/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/tests/fixtures/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  testTimeout: 60000,
};
