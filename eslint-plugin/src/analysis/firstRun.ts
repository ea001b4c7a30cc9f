import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { calleeName, skipTransparent, walk } from './ast';

type Services = Readonly<TSESLint.SourceCode>;

/** Calls that make the path they are given: after one run of the block, the path exists. */
const MAKES_PATH: ReadonlySet<string> = new Set(['mkdirSync', 'writeFileSync', 'copyFileSync', 'cpSync', 'mkdirpSync', 'ensureDirSync', 'outputFileSync']);
const PROBES_PATH: ReadonlySet<string> = new Set(['existsSync', 'pathExistsSync']);

/**
 * Is `node` inside `if (!existsSync(p)) { …; mkdirSync(p); … }` in `fn`: setup that makes what its
 * test finds missing (a data directory, a database installed on first start), so it runs once
 * per installation, not per request?
 */
export function isFirstRunSetup(sourceCode: Services, node: TSESTree.Node, fn: FunctionNode): boolean {
  let child: TSESTree.Node = node;
  for (let current = node.parent; current && child !== fn; child = current, current = current.parent) {
    if (current.type !== AST_NODE_TYPES.IfStatement || current.consequent !== child) continue;
    const test = skipTransparent(current.test);
    const probe = test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!' ? skipTransparent(test.argument) : null;
    const probed = probe?.type === AST_NODE_TYPES.CallExpression && PROBES_PATH.has(calleeName(probe) ?? '') ? probe.arguments[0] : undefined;
    if (probed && makesPath(sourceCode, current.consequent, sourceCode.getText(probed))) return true;
  }
  return false;
}

function makesPath(sourceCode: Services, block: TSESTree.Node, pathText: string): boolean {
  let found = false;
  walk(block, sourceCode.visitorKeys, (n) => {
    if (found) return false;
    if (n.type === AST_NODE_TYPES.CallExpression && MAKES_PATH.has(calleeName(n) ?? '') && n.arguments[0] &&
      sourceCode.getText(n.arguments[0]) === pathText) {
      found = true;
    }
    return !found;
  });
  return found;
}
