import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { BlockingOptions, BusyWait, FunctionNode, WaitLoop } from '../analysis';
import {
  busyWait, callsOf, functionBody, isOncePerProcess, isRepeatedIn, isSingleMetadataCall, matchBlockingCall, runningFunction,
} from '../analysis';
import type { JudgedContext, RunContext } from './blockingReports';
import { calledByText } from './blockingReports';
import type { EvidenceLocation } from './evidence';
import { evidenceAt } from './evidence';

/**
 * What no-blocking-in-async reports inside a same-file helper every call of which serves
 * (issue 17's placement): the helper as the place it runs, naming its callers, and its blocking
 * calls and busy waits in body order. `follow` calls are other helpers, judged from here.
 */
export interface HelperPlacement {
  ctx: RunContext;
  /** The serving calls of the helper, said with each report in it. */
  evidence: EvidenceLocation[];
  calls: ({ call: TSESTree.CallExpression; name: string } | { call: TSESTree.CallExpression; follow: true })[];
  waits: { loop: WaitLoop; wait: BusyWait }[];
}

export interface PlacementSettings {
  blocking: BlockingOptions;
  strict: boolean;
  /** Serving code of its own (a handler inside the helper) is checked as such, not as part of the helper. */
  serves: (node: TSESTree.Node) => boolean;
  /** Lines already reported in place when the file was walked. */
  reportedLines: ReadonlySet<number>;
  /** The context a call of the helper was judged in, made in `fn` (its async code, handler or calling helper). */
  judgeCall: (call: TSESTree.CallExpression, fn: FunctionNode) => JudgedContext;
}

/** Any serving call makes the helper serving; strict also places helpers only startup or one-shot code calls. */
const JUDGED_ORDER: readonly JudgedContext[] = ['serving', 'unknown', 'startup', 'one-shot'];

export function helperPlacement(
  sourceCode: Readonly<TSESLint.SourceCode>,
  fn: FunctionNode,
  servingCalls: ReadonlyMap<TSESTree.CallExpression, RunContext>,
  settings: PlacementSettings,
): HelperPlacement {
  const calls = (callsOf(sourceCode, fn) ?? []).map((call) => ({ call, ctx: servingCalls.get(call) ?? null }));
  const seen = new Set(calls.flatMap(({ call, ctx: at }) => {
    const within = at?.asyncFunction ?? runningFunction(call);
    return within ? [settings.judgeCall(call, within)] : [];
  }));
  const judged = JUDGED_ORDER.find((j) => seen.has(j)) ?? 'serving';
  const ctx: RunContext = { asyncFunction: fn, via: [], sync: true, servedBy: calledByText(calls, judged === 'serving'), judged };
  const evidence = calls.map(({ call }) => evidenceAt(call, judged === 'serving' ? 'runs it while serving from here' : 'runs it from here'));
  // Called in a loop, its one metadata call repeats per element: then it counts.
  const quiet = !settings.strict && !calls.some(({ call, ctx: at }) => {
    const within = at?.asyncFunction ?? runningFunction(call);
    return within !== null && isRepeatedIn(call, within);
  });
  const placement: HelperPlacement = { ctx, evidence, calls: [], waits: [] };
  const body = functionBody(sourceCode, fn);
  for (const call of body.calls) {
    if (settings.serves(call)) continue;
    const direct = matchBlockingCall(sourceCode, call, settings.blocking);
    if (!direct) {
      placement.calls.push({ call, follow: true });
      continue;
    }
    if (isOncePerProcess(sourceCode, call) || (quiet && isSingleMetadataCall(direct, fn)) || settings.reportedLines.has(call.loc.start.line)) continue;
    placement.calls.push({ call, name: direct.api.name });
  }
  for (const loop of body.loops) {
    const wait = settings.serves(loop) ? null : busyWait(sourceCode, loop);
    if (wait) placement.waits.push({ loop, wait });
  }
  return placement;
}
