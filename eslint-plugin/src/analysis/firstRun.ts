import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { calleeName, findVariable, isFunctionNode, skipTransparent, walk } from './ast';
import { resolveCalleeFunction, resolveImportedFunction } from './callGraph';
import { refMatches, resolveReference } from './imports';

type Services = Readonly<TSESLint.SourceCode>;

/** Calls that make the path they are given: after one run of the block, the path exists. */
const MAKES_PATH: ReadonlySet<string> = new Set(['mkdirSync', 'writeFileSync', 'copyFileSync', 'cpSync', 'mkdirpSync', 'ensureDirSync', 'outputFileSync']);
const PROBES_PATH: ReadonlySet<string> = new Set(['existsSync', 'pathExistsSync']);
/** Embedded databases whose constructor creates the file it is given when it is missing. */
const CREATES_DATABASE: readonly (readonly [string, ...string[]])[] = [['better-sqlite3'], ['sqlite3', 'Database'], ['node:sqlite', 'DatabaseSync']];

/**
 * Is `node` inside `if (!existsSync(p)) { …; mkdirSync(p); … }` in `fn`: setup that makes what its
 * test finds missing (a data directory, a database installed on first start), so it runs once
 * per installation, not per request? The test may be a variable that holds the probe
 * (`const needsInit = !existsSync(path)`), and the path may be made in `fn` outside the block:
 * `openDatabase(path)` before `if (needsInit) { db.exec(readFileSync(schema)) }` creates the
 * database file the block fills, once per new file.
 */
export function isFirstRunSetup(sourceCode: Services, node: TSESTree.Node, fn: FunctionNode): boolean {
  let child: TSESTree.Node = node;
  for (let current = node.parent; current && child !== fn; child = current, current = current.parent) {
    if (current.type !== AST_NODE_TYPES.IfStatement || current.consequent !== child) continue;
    const probed = missingPath(sourceCode, current.test);
    if (!probed) continue;
    const pathText = sourceCode.getText(probed);
    if (makesPath(sourceCode, current.consequent, pathText) || createsDatabaseIn(sourceCode, fn, pathText)) return true;
  }
  return false;
}

/** The path a test finds missing: `!existsSync(p)`, or a `const` (or never reassigned `let`) holding it. */
function missingPath(sourceCode: Services, testNode: TSESTree.Expression): TSESTree.Node | undefined {
  let test = skipTransparent(testNode);
  if (test.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, test);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    const writes = variable?.references.filter((r) => r.isWrite()).length ?? 0;
    if (def?.type !== 'Variable' || def.node.id !== def.name || !def.node.init || writes !== 1) return undefined;
    test = skipTransparent(def.node.init);
  }
  const probe = test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!' ? skipTransparent(test.argument) : null;
  return probe?.type === AST_NODE_TYPES.CallExpression && PROBES_PATH.has(calleeName(probe) ?? '') ? probe.arguments[0] : undefined;
}

/** `fn` hands the path to an embedded database's constructor, itself or through a helper that passes its first parameter on (`openDatabase(path)`). */
function createsDatabaseIn(sourceCode: Services, fn: FunctionNode, pathText: string): boolean {
  let found = false;
  walk(fn.body, sourceCode.visitorKeys, (n) => {
    // A nested function runs at another time, maybe never.
    if (found || isFunctionNode(n)) return false;
    if ((n.type === AST_NODE_TYPES.CallExpression || n.type === AST_NODE_TYPES.NewExpression) && n.arguments[0] &&
      sourceCode.getText(n.arguments[0]) === pathText) {
      found = (n.type === AST_NODE_TYPES.NewExpression && isDatabaseConstructor(sourceCode, n.callee)) || helperCreatesDatabase(sourceCode, n.callee);
    }
    return !found;
  });
  return found;
}

function isDatabaseConstructor(sourceCode: Services, callee: TSESTree.Node): boolean {
  const ref = resolveReference(sourceCode, callee);
  return CREATES_DATABASE.some(([module, ...path]) => refMatches(ref, module, ...path));
}

/** A function (in this file or a project module) that constructs an embedded database from its first parameter. */
function helperCreatesDatabase(sourceCode: Services, callee: TSESTree.Node): boolean {
  const local = resolveCalleeFunction(sourceCode, callee);
  const imported = local ? null : resolveImportedFunction(sourceCode, callee);
  const helper = local ?? imported?.fn;
  const code = local ? sourceCode : imported?.sourceCode;
  const param = helper?.params[0];
  if (!helper || !code || param?.type !== AST_NODE_TYPES.Identifier) return false;
  let found = false;
  walk(helper.body, code.visitorKeys, (n) => {
    if (found) return false;
    if (n.type === AST_NODE_TYPES.NewExpression && n.arguments[0]?.type === AST_NODE_TYPES.Identifier && n.arguments[0].name === param.name &&
      isDatabaseConstructor(code, n.callee)) {
      found = true;
    }
    return !found;
  });
  return found;
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
