/** Jest with NestJS 12 (ESM-only packages) on Node 20: swc transforms TS and the ESM files of
 * the packages listed below into CommonJS. Type checking is `npm run typecheck`, separately. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.(t|mj|j)s$': swc },
  transformIgnorePatterns: [
    '/node_modules/(?!(hyparquet|hyparquet-writer|@nestjs|file-type|load-esm|strtok3|token-types|uint8array-extras|@tokenizer|peek-readable)/)',
  ],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  globalSetup: '<rootDir>/test/temp-root.setup.ts',
  globalTeardown: '<rootDir>/test/temp-root.teardown.ts',
  testTimeout: 60000,
};
