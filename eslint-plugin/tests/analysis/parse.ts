import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { walk } from '../../src/analysis';

export interface Parsed {
  sourceCode: Readonly<TSESLint.SourceCode>;
  ast: TSESTree.Program;
  /** The `nth` node (source order, 0-based) of `type` whose source text is exactly `text`. */
  find<T extends TSESTree.AST_NODE_TYPES>(type: T, text: string, nth?: number): Extract<TSESTree.Node, { type: T }>;
  /** Every node of `type`, in source order. */
  all<T extends TSESTree.AST_NODE_TYPES>(type: T): Extract<TSESTree.Node, { type: T }>[];
}

/**
 * Parses `code` the way the plugin sees it: real ESLint, `@typescript-eslint/parser`, scope analysis
 * and parent pointers. A test-only rule captures the `SourceCode`; queries then run on the result.
 */
export function parse(code: string, filename = 'file.ts'): Parsed {
  let captured: Readonly<TSESLint.SourceCode> | undefined;
  const capture = {
    create(context: { sourceCode: unknown }) {
      captured = context.sourceCode as Readonly<TSESLint.SourceCode>;
      return {};
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}'],
        languageOptions: { parser: tsParser, sourceType: filename.endsWith('.cjs') ? 'commonjs' : 'module' },
        plugins: { test: { rules: { capture } } },
        rules: { 'test/capture': 'error' },
      },
    ] as Linter.Config[],
    filename,
  );
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new Error(`parse error at ${fatal.line}:${fatal.column}: ${fatal.message}`);
  if (!captured) throw new Error('the capture rule did not run');
  const sourceCode = captured;
  const ast = sourceCode.ast;

  const all = <T extends TSESTree.AST_NODE_TYPES>(type: T): Extract<TSESTree.Node, { type: T }>[] => {
    const found: TSESTree.Node[] = [];
    walk(ast, sourceCode.visitorKeys, (node) => {
      if (node.type === type) found.push(node);
    });
    found.sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1]);
    return found as Extract<TSESTree.Node, { type: T }>[];
  };

  const find = <T extends TSESTree.AST_NODE_TYPES>(type: T, text: string, nth = 0): Extract<TSESTree.Node, { type: T }> => {
    const matches = all(type).filter((node) => sourceCode.getText(node) === text);
    const node = matches[nth];
    if (!node) throw new Error(`no ${type} #${nth} with text ${JSON.stringify(text)} (found ${matches.length})`);
    return node;
  };

  return { sourceCode, ast, find, all };
}
