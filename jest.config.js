import { availableParallelism } from 'node:os';

/** ESM + ts-jest, the combination verified on Node 20 (see shared/ARCHITECTURE.md, Toolchain facts). */
export default {
  // jest's default is cores - 1: one worker on a 2-core machine, while most files wait on subprocesses, browsers
  // and Redis. One more than the cores (at least 3): with one per core the suite used ~55% of 2 cores (CPU 687 s
  // of 2 x 600 s), the rest spent waiting on leases, browsers and players; a third file fills those waits. Tests
  // wait on events, so the extra load does not break them. `-w N` overrides.
  maxWorkers: Math.max(3, availableParallelism() + 1),
  // Builds the shared artefacts once (tests/setup/suite-cache.ts) instead of once per file.
  globalSetup: '<rootDir>/tests/setup/global-setup.ts',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/tests/**/*.test.ts'],
  // tests/load pins CPU hogs beside the grader (a core-second a second each): opt-in, `npm run test:long` (.ci/run).
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/tests/fixtures/', ...(process.env.REFEREE_TEST_LONG === '1' ? [] : ['/tests/load/'])],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  // A test waits on events; this limit only catches a hang. At load 40+ on 2 cores (eight suites at once) a batch
  // of four students took over 60 s, so 60 s failed working tests; 5 minutes does not slow a passing run.
  testTimeout: 300_000,
};
