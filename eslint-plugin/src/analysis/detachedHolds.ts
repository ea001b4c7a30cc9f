/**
 * Work a function starts and does not wait for, that gives the lock back itself:
 * `retry(async () => { …; await manager.unlock(address) }, 3, 10000).catch(() => manager.unlock(address))`.
 * The function returns, but the lock stays held through every backoff of that retry, so its
 * sleeps hold the lock as surely as awaited ones.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';
import { releasesResource } from './handOver';
import type { Acquisition } from './locks';
import { isHeldAt } from './locks';
import type { SleepAnalysis, SleepSite } from './sleeps';
import { isWaitedFor } from './sleeps';

const CHAIN_METHODS: ReadonlySet<string> = new Set(['then', 'catch', 'finally']);

/** Sleeps and retries started while `acquisition` is held, not waited for, whose own callbacks release it. */
export function detachedSleepsHolding(
  sourceCode: Readonly<TSESLint.SourceCode>,
  analysis: SleepAnalysis,
  acquisition: Acquisition,
): SleepSite[] {
  const root = acquisition.function ?? acquisition.scope;
  const sites: SleepSite[] = [];
  walk(root, sourceCode.visitorKeys, (node) => {
    if (node !== root && isFunctionNode(node) && !isSynchronouslyInvoked(node)) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression || isWaitedFor(node) || !isHeldAt(acquisition, node)) return true;
    const site = sleepOf(sourceCode, analysis, node);
    if (site && callbacksOf(node).some((cb) => releasesResource(acquisition, cb, sourceCode.visitorKeys))) {
      sites.push(site);
      return false;
    }
    return true;
  });
  return sites;
}

function sleepOf(sourceCode: Readonly<TSESLint.SourceCode>, analysis: SleepAnalysis, call: TSESTree.CallExpression): SleepSite | null {
  const kind = analysis.classify(call);
  if (kind) return { node: call, kind, via: null, callee: null, retryLoop: null, sourceCode, origin: null };
  const callee = analysis.calleeSites(call.callee);
  const inner = callee?.sites[0];
  if (!callee || !inner) return null;
  return { node: call, kind: inner.kind, via: inner, callee: callee.fn, retryLoop: null, sourceCode, origin: null };
}

/** The functions `call` is given, and those of the `.then`/`.catch`/`.finally` chained on its result. */
function callbacksOf(call: TSESTree.CallExpression): TSESTree.Node[] {
  const out: TSESTree.Node[] = call.arguments.filter((a) => isFunctionNode(a));
  let current: TSESTree.Node = call;
  for (;;) {
    const member: TSESTree.Node | undefined = current.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== current || !CHAIN_METHODS.has(staticPropertyName(member) ?? '')) break;
    const chained: TSESTree.Node | undefined = member.parent;
    if (chained?.type !== AST_NODE_TYPES.CallExpression || skipTransparent(chained.callee) !== member) break;
    out.push(...chained.arguments.filter((a) => isFunctionNode(a)));
    current = chained;
  }
  return out;
}
