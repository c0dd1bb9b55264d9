// ESLint with typescript-eslint (ADR 0046): `make lint` and `make test` run it on every TypeScript
// file. Few rules, each for a bug the compiler lets through; unused names are the compiler's own
// check (noUnusedLocals in tsconfig.base.json).
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['**/node_modules/**', '**/dist/**', 'var/**', 'coverage/**', 'test-results/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      // Each file is read with the tsconfig that owns it (the root's, web's or e2e's).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its rejection: an unhandled rejection stops a Node process.
      '@typescript-eslint/no-floating-promises': 'error',
      // An async function where a callback's return is ignored (an event handler, setInterval,
      // forEach), or a promise tested as a condition, which is always true.
      '@typescript-eslint/no-misused-promises': 'error',
      // Awaiting what is not a promise is almost always a call left out.
      '@typescript-eslint/await-thenable': 'error',
      // `return promise` inside try/catch/finally returns before the catch or finally can see it fail.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // A thrown string or object has no stack; logs and error handlers expect an Error.
      '@typescript-eslint/only-throw-error': 'error',
    },
  },
  {
    // `any` switches the checks off where data crosses into the code; tests may read JSON loosely.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['**/test/**', '**/*.test.ts', '**/*.test.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
);
