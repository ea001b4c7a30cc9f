import type { ParserServices, TSESLint } from '@typescript-eslint/utils';

const WITHOUT_TYPES = {
  program: null,
  esTreeNodeToTSNodeMap: new WeakMap(),
  tsNodeToESTreeNodeMap: new WeakMap(),
  emitDecoratorMetadata: undefined,
  experimentalDecorators: undefined,
  isolatedDeclarations: undefined,
} as unknown as ParserServices;

/**
 * The parser's services, or services without a program when the parser gives none. Rules must run
 * on any ESTree parser (ESLint's default espree, oxlint's JS plugins), so unlike
 * `ESLintUtils.getParserServices` this never throws: type information only ever adds to a rule.
 */
export function getOptionalParserServices(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
): ParserServices {
  const services = context.sourceCode.parserServices as Partial<ParserServices> | undefined;
  return services?.esTreeNodeToTSNodeMap ? (services as ParserServices) : WITHOUT_TYPES;
}
