// Lints this repository. Our own plugin runs on our own code; samples, fixtures and docs examples
// are hazardous on purpose and ignored by name.
import tseslint from 'typescript-eslint';
import asyncHazards from 'eslint-plugin-async-hazards';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      // An earlier build copied in for before/after bench runs (bench/lint-worker.mjs).
      'eslint-plugin/dist-before/**',
      'samples/**',
      'eslint-plugin/tests/fixtures/**',
      'test/fixtures/**',
      'bench/.corpus/**',
      '.e2e-vscode/**',
      'client/out/**',
      'test-results/**',
    ],
  },
  ...tseslint.configs.recommended,
  asyncHazards.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The project layer sits below analysis: facts about files and packages, never findings.
    files: ['eslint-plugin/src/project/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '!../project', '!../project/*'],
              message: 'project/ is below analysis: it never imports analysis, rules or util (it knows files and packages, never reports).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
