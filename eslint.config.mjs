// The house linter: typescript-eslint's type-aware recommended rules over every package's sources
// and tests. Prettier owns layout, so no rule here is about formatting.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'docs/site/**',
      '**/results/**',
      '**/*.d.ts',
      '**/.vitest-redis/**',
      '.nx/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The Lua include resolver sits at the root, beside the tsup and vitest configurations
        // that load it, where no tsconfig.json is.
        projectService: { allowDefaultProject: ['luaIncludes.mts'], defaultProject: 'tsconfig.base.json' },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // What Deadbolt rejects with or throws that it did not make (a signal's reason, a driver's
      // rejection, an error kept for the waiters) is passed on as it came: wrapping it would
      // change what the caller catches. What Deadbolt makes is always an Error, which these
      // rules still check.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          // A `using` binding is there for its disposal at the end of the block (a hold released,
          // a listener removed), not to be read. A parameter named `_x` is one a signature needs
          // (an override's, a stub's of an interface method) that this body does not read.
          ignoreUsingDeclarations: true,
          argsIgnorePattern: '^_',
        },
      ],
    },
  },
  {
    // Vitest's asymmetric matchers (`expect.any(Number)`, `expect.stringContaining(...)`) are typed
    // `any`, so every object literal that holds one is an "unsafe assignment". Test code only:
    // the tests, and the conformance suites that packages' tests run. A test's stand-in for an
    // async call is written `async` even when it awaits nothing, so that what it throws rejects,
    // as the real call does.
    files: ['**/test/**/*.ts', 'packages/conformance/src/suites/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off', '@typescript-eslint/require-await': 'off' },
  },
  {
    // The examples are the code the guides, READMEs and TSDoc show: a `withLock(async (signal) => ...)`
    // callback is written async because a reader's real work awaits, even where the example's
    // stand-in work (a console.log) does not.
    files: ['examples/src/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // pnpm loads .pnpmfile.cjs as CommonJS: `module` and `require` are its globals.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // Plain JavaScript, and the build and test runners' configuration files (no tsconfig includes
    // them: they are read by tsup and vitest, not compiled), are linted without types.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs', '**/tsup.config.ts', '**/vitest.config.ts', '*.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
