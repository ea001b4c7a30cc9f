import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, staticPropertyName } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';
import { bindingOf, isExported, privateMethodUses } from './ownCallers';
import type { SleepAnalysis, SleepSite } from './sleeps';

type Services = Readonly<TSESLint.SourceCode>;

/** One step from a held region towards a sleep: a call (or a callback reference) and the function it enters. */
export interface SleepLink {
  node: TSESTree.Node;
  /** The file `node` is in. */
  sourceCode: Services;
  callee: FunctionNode;
  /** The file `callee` is in: the same one, or a project module it was imported from. */
  calleeSourceCode: Services;
}

/** How a region reaches a sleep: the helper calls in order, then the sleep itself. */
export interface SleepChain {
  links: SleepLink[];
  leaf: SleepSite;
}

/**
 * The chain from `at`, the node in the region that reaches `site`: `site.node` itself, or the
 * callback reference of `limit(fetchWithRetry)`, whose `site` stands for the function it names.
 */
export function sleepChain(at: TSESTree.Node, site: SleepSite): SleepChain {
  const links: SleepLink[] = [];
  let node: TSESTree.Node = at;
  let current = site;
  while (current.via && current.callee) {
    links.push({ node, sourceCode: current.sourceCode, callee: current.callee, calleeSourceCode: current.via.sourceCode });
    current = current.via;
    node = current.node;
  }
  return { links, leaf: current };
}

/**
 * `chain` and the chains to every other sleep of the helpers it enters that only ever run
 * holding (`onlyHeld`): a chain names one sleep per call, the first its callee waits for, but each
 * sleep of such a helper holds the permit and is reported where it is.
 */
export function heldChains(
  sourceCode: Services,
  analysis: SleepAnalysis,
  chain: SleepChain,
  onlyHeld: (fn: FunctionNode) => boolean,
): SleepChain[] {
  const chains = [chain];
  const entered = new Set<FunctionNode>();
  const heldLink = (link: SleepLink): boolean =>
    link.sourceCode === sourceCode && link.calleeSourceCode === sourceCode && onlyHeld(link.callee);
  const expand = (prefix: SleepLink[]): void => {
    const callee = (prefix.at(-1) as SleepLink).callee;
    if (entered.has(callee)) return;
    entered.add(callee);
    for (const site of analysis.sitesIn(callee)) {
      const inner = sleepChain(site.node, site);
      chains.push({ links: [...prefix, ...inner.links], leaf: inner.leaf });
      const first = inner.links[0];
      if (first && heldLink(first)) expand([...prefix, first]);
    }
  };
  for (let i = 0; i < chain.links.length && heldLink(chain.links[i] as SleepLink); i++) expand(chain.links.slice(0, i + 1));
  return chains;
}

/**
 * Where a sleep reached from a region is reported (issue 17's table):
 * - `direct`: the sleep is in the region itself; reported there.
 * - `helper`: the sleep is in a same-file helper every call of which is made holding a permit
 *   (through helpers that are too); reported at the sleep, where the fix goes.
 * - `callee`: the first same-file helper call in the chain whose helper is also called elsewhere.
 * - `imported`: the call of a helper imported from a project module; the module is not this
 *   file's to change, and other callers may call it without a permit.
 */
export interface SleepPlacement {
  kind: 'direct' | 'helper' | 'callee' | 'imported';
  node: TSESTree.Node;
  /** The links up to `node`, all in the linted file: the calls whose helpers only run holding. */
  before: SleepLink[];
  /** The links from `node` on: `node`'s own link first (none for `direct` and `helper`). */
  after: SleepLink[];
  leaf: SleepSite;
}

export function placeSleep(sourceCode: Services, chain: SleepChain, onlyHeld: (fn: FunctionNode) => boolean): SleepPlacement {
  const { links, leaf } = chain;
  if (links.length === 0) return { kind: 'direct', node: leaf.node, before: [], after: [], leaf };
  let i = 0;
  while (i < links.length) {
    const link = links[i] as SleepLink;
    if (link.sourceCode !== sourceCode || link.calleeSourceCode !== sourceCode || !onlyHeld(link.callee)) break;
    i++;
  }
  const before = links.slice(0, i);
  if (i === links.length) return { kind: 'helper', node: leaf.node, before, after: [], leaf };
  const link = links[i] as SleepLink;
  return { kind: link.calleeSourceCode === sourceCode ? 'callee' : 'imported', node: link.node, before, after: links.slice(i), leaf };
}

/**
 * Is every call of the same-file function `fn` made inside a held region? `entries` are the
 * nodes by which regions reach sleeps: the waited-for calls inside them and callback references
 * (`limit(fetchWithRetry)`). A call inside another helper counts when that helper's every call
 * does, and a helper's calls of itself (a retry by recursion) run where its first call does. A
 * private method (`#m`, `private m`) is reached only by `this.m` in its class; a function that is
 * exported, aliased, passed around or a public method may be called from anywhere, so it never
 * counts: its findings stay at the calls.
 */
export function onlyCalledHolding(
  sourceCode: Services,
  analysis: SleepAnalysis,
  entries: ReadonlySet<TSESTree.Node>,
): (fn: FunctionNode) => boolean {
  const memo = new Map<FunctionNode, boolean>();
  const held = (call: TSESTree.CallExpression): boolean => {
    if (entries.has(call)) return true;
    const owner = waitingFunction(call);
    return owner !== null && onlyHeld(owner) && analysis.sitesIn(owner).some((s) => s.node === call);
  };
  const onlyHeld = (fn: FunctionNode): boolean => {
    const known = memo.get(fn);
    if (known !== undefined) return known;
    // Mutual recursion: a helper reached only through its callees is not known to be held.
    memo.set(fn, false);
    const uses = usesOf(fn);
    let result = uses !== null;
    let outside = 0;
    for (const use of uses ?? []) {
      if (!result) break;
      const parent = use.parent;
      if (parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === use) {
        if (waitingFunction(parent) === fn) continue;
        result = held(parent);
      } else {
        result = entries.has(use);
      }
      outside++;
    }
    result &&= outside > 0;
    memo.set(fn, result);
    return result;
  };
  const usesOf = (fn: FunctionNode): TSESTree.Node[] | null => {
    const binding = bindingOf(fn);
    if (!binding) return privateMethodUses(sourceCode, fn);
    const variable = isExported(fn) ? null : findVariable(sourceCode, binding);
    if (!variable) return null;
    return variable.references.filter((r) => r.identifier !== binding && !r.init).map((r) => r.identifier);
  };
  return onlyHeld;
}

/** The name a helper is called by, for messages: `fetchWithRetry`, `this.pause`'s `pause`. */
export function helperName(fn: FunctionNode): string | null {
  const binding = bindingOf(fn);
  if (binding) return binding.name;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.MethodDefinition || parent?.type === AST_NODE_TYPES.Property || parent?.type === AST_NODE_TYPES.PropertyDefinition) {
    const key = parent.key;
    if (!parent.computed && key.type === AST_NODE_TYPES.Identifier) return key.name;
    if (key.type === AST_NODE_TYPES.PrivateIdentifier) return `#${key.name}`;
  }
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left.type === AST_NODE_TYPES.MemberExpression) {
    return staticPropertyName(parent.left);
  }
  return null;
}

/** The function whose sleep sites include `call`: the nearest one that does not run synchronously inside its parent. */
function waitingFunction(call: TSESTree.Node): FunctionNode | null {
  let current = call.parent;
  while (current) {
    if (isFunctionNode(current) && !isSynchronouslyInvoked(current)) return current;
    current = current.parent;
  }
  return null;
}
