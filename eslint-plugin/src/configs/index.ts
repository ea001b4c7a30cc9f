import type { TSESLint } from '@typescript-eslint/utils';
import * as tsParser from '@typescript-eslint/parser';
import type { RuleName } from '../rules';

type FlatConfig = TSESLint.FlatConfig.Config;
type Plugin = NonNullable<FlatConfig['plugins']>[string];

/** Every JavaScript and TypeScript extension the rules understand. */
export const LINTED_FILES = ['**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}'];

export function buildConfigs(plugin: Plugin, ruleNames: readonly RuleName[]): Record<string, FlatConfig> {
  const allRules: FlatConfig['rules'] = {};
  for (const name of ruleNames) allRules[`async-hazards/${name}`] = 'error';

  // One object, usable directly in a flat config array. The TypeScript parser reads plain
  // JavaScript as well, so JS and TS files get the same analysis.
  const recommended: FlatConfig = {
    name: 'async-hazards/recommended',
    files: LINTED_FILES,
    plugins: { 'async-hazards': plugin },
    languageOptions: { parser: tsParser },
    rules: allRules,
  };
  const recommendedTypeChecked: FlatConfig = {
    ...recommended,
    name: 'async-hazards/recommended-type-checked',
    languageOptions: {
      ...recommended.languageOptions,
      parserOptions: { projectService: true },
    },
  };
  // Strict is the same rules with one shared setting: each rule then also reports what
  // `recommended` leaves out for context. `all` is its older name.
  const strictSettings = { 'async-hazards': { preset: 'strict' } };
  const strict: FlatConfig = { ...recommended, name: 'async-hazards/strict', settings: strictSettings };
  const strictTypeChecked: FlatConfig = { ...recommendedTypeChecked, name: 'async-hazards/strict-type-checked', settings: strictSettings };
  return {
    recommended,
    'recommended-type-checked': recommendedTypeChecked,
    strict,
    'strict-type-checked': strictTypeChecked,
    all: { ...strict, name: 'async-hazards/all' },
  };
}
