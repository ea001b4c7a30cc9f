/**
 * Work a function starts and does not wait for, that gives the lock back itself:
 * `retry(async () => { …; await manager.unlock(address) }, 3, 10000).catch(() => manager.unlock(address))`.
 * The function returns, but the lock stays held through every backoff of that retry, so its
 * sleeps hold the lock as surely as awaited ones. Likewise a listener or callback, set up while
 * the lock is held, that releases it: `.on('transactionHash', async () => { await sleep(3); mutex.release(); })`
 * holds the lock until its release, so a sleep it waits out first holds it too.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { contains, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';
import { releasesResource } from './handOver';
import type { Acquisition } from './locks';
import { isHeldAt, releaseCoverStatement } from './locks';
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

/**
 * Sleeps waited out, before the release, in a function nested in the acquiring one that releases
 * the acquisition itself (a listener, a callback) and is created while it is held: on the path to
 * that release the lock is still held. The release must come after the sleep in a block that
 * holds both, so that it runs once the sleep is over.
 */
export function sleepsBeforeNestedRelease(analysis: SleepAnalysis, acquisition: Acquisition): SleepSite[] {
  const sites: SleepSite[] = [];
  const seen = new Set<SleepSite>();
  for (const release of acquisition.releaseCalls) {
    if (!release.inNestedFunction) continue;
    const fn = releasingFunction(release.call, acquisition);
    if (!fn || !isHeldAt(acquisition, fn)) continue;
    const cover = releaseCoverStatement(release, fn.body);
    const block = cover?.parent;
    if (!cover || !block) continue;
    for (const site of analysis.sitesIn(fn)) {
      if (seen.has(site) || !contains(block, site.node) || site.node.range[1] > cover.range[0]) continue;
      seen.add(site);
      sites.push(site);
    }
  }
  return sites;
}

/** The function a nested release runs in, when it is not itself run synchronously by its parent. */
function releasingFunction(call: TSESTree.Node, acquisition: Acquisition): FunctionNode | null {
  for (let current = call.parent; current && current !== acquisition.function; current = current.parent) {
    if (isFunctionNode(current) && !isSynchronouslyInvoked(current)) return current;
  }
  return null;
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
