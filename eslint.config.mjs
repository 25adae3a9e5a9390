// The house linter: typescript-eslint's type-aware recommended rules over every package's sources
// and tests. Prettier owns layout, so no rule here is about formatting.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'docs/site/**', '**/results/**', '**/*.d.ts', '**/.vitest-redis/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
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
    },
  },
  {
    // Plain JavaScript, and the build and test runners' configuration files (no tsconfig includes
    // them: they are read by tsup and vitest, not compiled), are linted without types.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs', '**/tsup.config.ts', '**/vitest.config.ts', '*.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
