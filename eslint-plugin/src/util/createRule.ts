import { ESLintUtils } from '@typescript-eslint/utils';

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

export const createRule = ESLintUtils.RuleCreator<AsyncHazardsDocs>(ruleDocsUrl);
