import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { parseAndGenerateServices } from '@typescript-eslint/typescript-estree';
import * as ts from 'typescript';
import { askChecker, typeAt, typeHasProperty } from '../../src/analysis';

const RECURSIVE = `interface CustomNode<P> { getNextNode: () => CustomNode<P>; }
declare const createNode: () => { getNextNode: <T>() => CustomNode<T> };
function wrapNode<T>(getNode: () => CustomNode<T>) { return getNode; }
(async () => {
  wrapNode(() => {
    const node = createNode();
    return wrapNode<typeof node.getNextNode<any>>(node.getNextNode);
  });
})();
const ready = Promise.resolve(1);
`;

/** A real program over `code` written to a temporary file, with the ESTree ↔ TS node maps. */
function typed(code: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'async-hazards-types-'));
  const filePath = path.join(dir, 'recursive.ts');
  writeFileSync(filePath, code);
  const program = ts.createProgram([filePath], { strict: true, target: ts.ScriptTarget.ES2022, noEmit: true, types: [] });
  const { ast, services } = parseAndGenerateServices(code, { filePath, programs: [program], loc: true, range: true });
  rmSync(dir, { recursive: true, force: true });
  // The IIFE statement and the first statement inside its arrow function.
  const outer = ast.body[3] as TSESTree.ExpressionStatement;
  const arrow = (outer.expression as TSESTree.CallExpression).callee as TSESTree.ArrowFunctionExpression;
  const inner = (arrow.body as TSESTree.BlockStatement).body[0] as TSESTree.ExpressionStatement;
  assert.equal(inner.expression.type, AST_NODE_TYPES.CallExpression);
  const statements = [outer.expression, inner.expression];
  return { services: { program, esTreeNodeToTSNodeMap: services.esTreeNodeToTSNodeMap }, ast, statements };
}

describe('askChecker', () => {
  it('passes the answer through', () => {
    assert.equal(askChecker(() => 42, null), 42);
  });

  it('a throwing question answers unknown', () => {
    assert.equal(askChecker(() => { throw new TypeError('checker bug'); }, 'unknown'), 'unknown');
  });

  it('a stack overflow answers unknown', () => {
    const recurse = (n: number): number => recurse(n + 1) + 1;
    assert.equal(askChecker(() => recurse(0), null), null);
  });
});

describe('typeAt', () => {
  it('gives the checker\'s type of an expression', () => {
    const { services, statements } = typed(RECURSIVE);
    const iife = statements[0] as TSESTree.Expression;
    const type = typeAt(services, iife);
    assert.ok(type);
    assert.equal(services.program.getTypeChecker().typeToString(type), 'Promise<void>');
  });

  it('is null, not a throw, where TypeScript overflows on a recursive generic', () => {
    const { services, statements } = typed(RECURSIVE);
    // The raw question really does overflow: without the guard this test has nothing to prove.
    const inner = statements[1] as TSESTree.Expression;
    const tsNode = services.esTreeNodeToTSNodeMap.get(inner);
    assert.throws(() => services.program.getTypeChecker().getTypeAtLocation(tsNode), RangeError);
    const fresh = typed(RECURSIVE);
    assert.equal(typeAt(fresh.services, fresh.statements[1] as TSESTree.Expression), null);
  });

  it('typeHasProperty: `then` on a promise, false when the checker fails', () => {
    const { services, statements, ast } = typed(RECURSIVE);
    const declarator = (ast.body[ast.body.length - 1] as TSESTree.VariableDeclaration).declarations[0];
    assert.ok(declarator?.init);
    assert.equal(typeHasProperty(services, declarator.init, 'then'), true);
    assert.equal(typeHasProperty(services, declarator.init, 'nope'), false);
    assert.equal(typeHasProperty(services, statements[1] as TSESTree.Expression, 'then'), false);
  });
});
