/** ESM + ts-jest, the combination verified on Node 20 (see shared/ARCHITECTURE.md, Toolchain facts). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/tests/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/tests/fixtures/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  testTimeout: 60000,
};
