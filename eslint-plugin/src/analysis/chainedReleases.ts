/**
 * Releases in the handlers of a promise chain that starts at the acquire:
 * `pool.acquire().then((r) => { resource = r; … }).then(fn).then(async (v) => { await check(resource); pool.release(resource) }, async (e) => { … })`.
 * The chain's handlers play the part of `try`/`catch`: a release in both the fulfilled and the
 * rejected handler runs however `fn` ends. But an `await` in a handler before its release (a
 * health check on the resource, a cleanup step) can reject, and then the handler ends without
 * releasing; nothing later in the chain gives the resource back.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import type { Acquisition, ReleaseSite } from './locks';

type Services = Readonly<TSESLint.SourceCode>;

export interface ChainedLeak {
  /** The first `await` that can leave a releasing handler before its release. */
  thrower: TSESTree.Node;
  /** The release it skips. */
  release: ReleaseSite;
  /** Every release so skipped, one per handler, source order. */
  skipped: { thrower: TSESTree.Node; release: ReleaseSite }[];
}

const LINKS: ReadonlySet<string> = new Set(['then', 'catch', 'finally']);

/**
 * The releases of `acquisition`'s resource that a chain handler can skip, when the acquire's
 * promise is chained (`owner.acquire().then(…)`) and the resource goes back to the owner from the
 * chain's handlers (`owner.release(r)`, `owner.destroy(r)`, with `r` the first handler's parameter
 * or a variable that handler assigns it to). Null when no release is preceded by an `await`
 * outside a `try`, or the chain does not take the resource back itself.
 */
export function chainedLeak(sourceCode: Services, acquisition: Acquisition): ChainedLeak | null {
  const owner = acquisition.owner;
  if (!owner || acquisition.kind !== 'pooledResource') return null;
  const handlers = chainHandlers(acquisition.acquireCall);
  const first = handlers[0];
  if (!first || first.link !== 0) return null;
  const param = first.fn.params[0];
  if (param?.type !== AST_NODE_TYPES.Identifier) return null;
  const held = heldVariables(sourceCode, first.fn, param);
  if (held.size === 0) return null;
  const ownerText = sourceCode.getText(skipTransparent(owner));
  const skipped: ChainedLeak['skipped'] = [];
  for (const { fn } of handlers) {
    const releases = releasesIn(sourceCode, fn, ownerText, held);
    const release = releases[0];
    if (!release) continue;
    const thrower = awaitBefore(sourceCode, fn, release);
    if (thrower) skipped.push({ thrower, release: { call: release, form: 'ownerTakesResult', finallyOf: null, catchClause: null, inNestedFunction: true } });
  }
  const leak = skipped[0];
  return leak ? { thrower: leak.thrower, release: leak.release, skipped } : null;
}

/** The functions handed to each link of the chain on `call`, with the link's index (0 = the first `.then`). */
function chainHandlers(call: TSESTree.CallExpression): { fn: FunctionNode; link: number }[] {
  const out: { fn: FunctionNode; link: number }[] = [];
  let current: TSESTree.Node = call;
  for (let link = 0; ; link++) {
    const member: TSESTree.Node | undefined = current.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== current || !LINKS.has(staticPropertyName(member) ?? '')) break;
    const next: TSESTree.Node | undefined = member.parent;
    if (next?.type !== AST_NODE_TYPES.CallExpression || next.callee !== member) break;
    for (const arg of next.arguments) if (isFunctionNode(arg)) out.push({ fn: arg, link });
    current = next;
  }
  return out;
}

/** The parameter, and the variables of enclosing functions the first handler assigns it to (`resource = r`). */
function heldVariables(sourceCode: Services, fn: FunctionNode, param: TSESTree.Identifier): Set<TSESLint.Scope.Variable> {
  const held = new Set<TSESLint.Scope.Variable>();
  const own = findVariable(sourceCode, param);
  if (own) held.add(own);
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (node !== fn.body && isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.AssignmentExpression && node.operator === '=' && node.left.type === AST_NODE_TYPES.Identifier &&
      node.right.type === AST_NODE_TYPES.Identifier && node.right.name === param.name) {
      const outer = findVariable(sourceCode, node.left);
      if (outer) held.add(outer);
    }
    return true;
  });
  return held;
}

/** `owner.release(x)` / `owner.destroy(x)` in `fn`'s own body, `x` one of `held`, source order. */
function releasesIn(sourceCode: Services, fn: FunctionNode, ownerText: string, held: ReadonlySet<TSESLint.Scope.Variable>): TSESTree.CallExpression[] {
  const found: TSESTree.CallExpression[] = [];
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (node !== fn.body && isFunctionNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression) return true;
    const callee = skipTransparent(node.callee);
    const arg = node.arguments[0];
    if (callee.type === AST_NODE_TYPES.MemberExpression && (staticPropertyName(callee) === 'release' || staticPropertyName(callee) === 'destroy') &&
      sourceCode.getText(skipTransparent(callee.object)) === ownerText && arg?.type === AST_NODE_TYPES.Identifier) {
      const variable = findVariable(sourceCode, arg);
      if (variable && held.has(variable)) found.push(node);
    }
    return true;
  });
  return found.sort((a, b) => a.range[0] - b.range[0]);
}

/** The first `await` of `fn`'s own body that ends before `release` starts and sits in no `try` block of `fn`. */
function awaitBefore(sourceCode: Services, fn: FunctionNode, release: TSESTree.CallExpression): TSESTree.AwaitExpression | null {
  const found: TSESTree.AwaitExpression[] = [];
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (node.range[0] >= release.range[0]) return false;
    if (node !== fn.body && isFunctionNode(node)) return false;
    // A `try` around it lands the rejection in code that can still release.
    if (node.type === AST_NODE_TYPES.TryStatement) return false;
    if (node.type === AST_NODE_TYPES.AwaitExpression && node.range[1] <= release.range[0]) found.push(node);
    return true;
  });
  return found.sort((a, b) => a.range[0] - b.range[0])[0] ?? null;
}
