import type { TSESLint } from '@typescript-eslint/utils';
import { buildConfigs } from './configs';
import type { RuleName } from './rules';
import { rules } from './rules';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- read at run time so the version has one source
const { version } = require('../package.json') as { version: string };

type FlatConfig = TSESLint.FlatConfig.Config;

interface AsyncHazardsPlugin {
  meta: { name: 'eslint-plugin-async-hazards'; version: string };
  rules: typeof rules;
  configs: Record<'recommended' | 'recommended-type-checked' | 'strict' | 'strict-type-checked' | 'all', FlatConfig>;
}

const plugin: AsyncHazardsPlugin = {
  meta: { name: 'eslint-plugin-async-hazards', version },
  rules,
  configs: {} as AsyncHazardsPlugin['configs'],
};

Object.assign(
  plugin.configs,
  buildConfigs(plugin as unknown as NonNullable<FlatConfig['plugins']>[string], Object.keys(rules) as RuleName[]),
);

export = plugin;
