/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  // The suites, each running every spec file of one directory (test/helpers/specs.ts). One spec file
  // alone: npx jest --testMatch '**/test/data/reach.spec.ts'
  testMatch: ['<rootDir>/test/suites/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // graphql-upload, fs-capacitor and file-type (with its dependencies) ship ESM only: let SWC turn
  // them into CommonJS.
  transformIgnorePatterns: ['/node_modules/(?!(graphql-upload|fs-capacitor|file-type|strtok3|token-types|uint8array-extras|@tokenizer|@borewit)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  // MikroORM's async storages made as the entry points make them (src/db/settling-storage.ts).
  setupFiles: ['<rootDir>/test/setup/settling-storage.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/setup/retry.ts'],
  testTimeout: 60000,
  // The longest suites first (test/setup/sequencer.js).
  testSequencer: '<rootDir>/test/setup/sequencer.js',
  // Three workers on two cores: with two, the cores stood idle while tests waited on their child
  // processes, servers and timers (docs/testing.md, "Workers").
  maxWorkers: 3,
  // A worker that has ended its suites reaches `exit` at once, then frees its heap: more than the
  // default half second on two busy cores (docs/testing.md, "Workers").
  workerGracefulExitTimeout: 5000,
};
