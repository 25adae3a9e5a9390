// Jest for examples/jest: TypeScript through @swc/jest, compiled to CommonJS with Nest's legacy
// decorators and their metadata, so the tests load the packages' CommonJS builds.
/** @type {import('jest').Config} */
module.exports = {
  testMatch: ['<rootDir>/*.test.ts'],
  testEnvironment: 'node',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
};
