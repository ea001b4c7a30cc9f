import { ESLintUtils } from '@typescript-eslint/utils';
import { registerSourceFile } from '../analysis/localModules';

/** Every rule's docs URL is built from this one base, so the docs can move in one place. */
export const DOCS_BASE_URL = 'https://github.com/async-hazards/async-hazards/blob/main/eslint-plugin/docs/rules';

export function ruleDocsUrl(ruleName: string): string {
  return `${DOCS_BASE_URL}/${ruleName}.md`;
}

export interface AsyncHazardsDocs {
  description: string;
  recommended?: boolean;
  requiresTypeChecking?: boolean;
}

const baseCreateRule = ESLintUtils.RuleCreator<AsyncHazardsDocs>(ruleDocsUrl);

/**
 * `RuleCreator`, with the options (defaults merged with the user's) computed once per distinct
 * option list instead of once per file: the merge starts with a `structuredClone` of the defaults,
 * which costs more than most files' whole analysis. The merged options are frozen, so a rule
 * cannot change what the next file sees.
 */
export const createRule = ((args: Parameters<typeof baseCreateRule>[0]) => {
  const rule = baseCreateRule(args);
  const defaults = (args.meta.defaultOptions ?? args.defaultOptions ?? []) as readonly unknown[];
  const merged = new Map<string, readonly unknown[]>();
  return {
    ...rule,
    create(context: Parameters<typeof rule.create>[0]) {
      // Imports of the project's own modules are looked up relative to this file.
      registerSourceFile(context.sourceCode, context.filename);
      const key = JSON.stringify(context.options ?? []);
      let options = merged.get(key);
      if (!options) {
        options = deepFreeze(ESLintUtils.applyDefault(defaults, context.options as readonly unknown[]));
        if (merged.size < 64) merged.set(key, options);
      }
      return args.create(context, options as never);
    },
  };
}) as typeof baseCreateRule;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
