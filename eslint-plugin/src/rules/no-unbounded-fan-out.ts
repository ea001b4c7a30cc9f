import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import type { BoundingRewrite, CollectionContext, FanOut, TextEdit, ValueOrigin } from '../analysis';
import {
  boundingLibraries, collectionSize, findVariable, createCollectionTypes, describeDroppedFanOut, describeFanOut, fanOutRewrite, forEachDropsRejections,
  isAwaitedIn, isFunctionNode, isQueuedWork, mapperWork, mergeEdits, pMapCall, promiseCombinator, settlesWithin, skipTransparent,
  sliceRewrite, spansSlicedList, staticPropertyName, teardownOf, valueOrigin,
} from '../analysis';
import { createRule } from '../util/createRule';
import { getOptionalParserServices } from '../util/parserServices';
import type { EvidenceLocation } from '../util/evidence';
import { evidenceAt, recordEvidence } from '../util/evidence';
import { getSharedSettings, isStrict } from '../util/settings';

export type Options = [{ concurrency?: number; maxLiteralElements?: number }];
export type MessageId = 'unboundedFanOut' | 'unawaitedFanOut' | 'chunkedBatch' | 'unboundedPMap' | 'usePMap' | 'useLimiter' | 'addConcurrency';

export default createRule<Options, MessageId>({
  name: 'no-unbounded-fan-out',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require a concurrency bound when mapping a collection of unknown size to async calls',
      recommended: true,
      requiresTypeChecking: false,
    },
    hasSuggestions: true,
    messages: {
      unboundedFanOut:
        '`Promise.{{method}}` starts {{what}} at once with no bound on how many run together{{where}}: a large input ' +
        'blows through the downstream rate limit and keeps every call and its payload in memory until the last one ' +
        'settles. {{remedy}}',
      unawaitedFanOut:
        '`{{method}}` starts one async call per item of `{{source}}` at once and waits for none of them: a large ' +
        'input blows through the downstream rate limit and keeps every call and its payload in memory until the last ' +
        'one settles. {{remedy}}',
      chunkedBatch:
        'This loop awaits `Promise.{{method}}` on slices of {{size}} of `{{source}}` (loop at line {{line}}): each ' +
        'slice waits for its slowest call, so finished slots sit idle and the next slice cannot start. A sliding ' +
        'window keeps all {{size}} slots busy. {{remedy}}',
      unboundedPMap:
        '`{{callee}}` without a finite `concurrency` runs every item of `{{source}}` at once (the default is ' +
        'unbounded): the downstream rate limit and memory take the whole input in one burst. Pass `{ concurrency: {{concurrency}} }`.',
      usePMap: 'Rewrite as `pMap(…, { concurrency: {{concurrency}} })` from p-map.',
      useLimiter: 'Run each call through a `pLimit({{concurrency}})` limiter from p-limit.',
      addConcurrency: 'Pass `{ concurrency: {{concurrency}} }`.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          concurrency: {
            type: 'integer',
            minimum: 1,
            description: 'The bound the suggestions write (`pMap` concurrency, `pLimit(N)`). Choose it from the target rate times the call latency.',
          },
          maxLiteralElements: {
            type: 'integer',
            minimum: 0,
            description: 'Collections whose size is evident and at most this many items (literal arrays, tuples, `slice(0, K)`) are not reported.',
          },
        },
        additionalProperties: false,
      },
    ],
  },
  defaultOptions: [{ concurrency: 8, maxLiteralElements: 16 }],
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    const concurrency = String(options.concurrency ?? 8);
    const maxElements = options.maxLiteralElements ?? 16;
    const strict = isStrict(context);
    const originContext = { sourceCode, filename: context.filename };
    // Built on the first combinator call: most files have none, and the checker costs nothing until then.
    let ctxCache: CollectionContext | null = null;
    const collections = (): CollectionContext => {
      if (ctxCache) return ctxCache;
      const services = getOptionalParserServices(context);
      const settings = getSharedSettings(context);
      ctxCache = {
        sourceCode,
        permitCallbacks: settings.permitCallbacks,
        limiters: settings.limiters,
        types: services.program ? createCollectionTypes(services as Parameters<typeof createCollectionTypes>[0]) : null,
      };
      return ctxCache;
    };
    const declared = (): { pMap: boolean; pLimit: boolean } => boundingLibraries(sourceCode, context.filename);
    const remedy = (method: string, n: string): string => {
      const d = declared();
      if (d.pMap && (method === 'all' || !d.pLimit)) return `Bound it with \`pMap(…, { concurrency: ${n} })\` from p-map.`;
      if (d.pLimit) return `Bound it with a \`pLimit(${n})\` limiter from p-limit.`;
      return `Add \`p-map\` (or \`p-limit\`) to package.json and bound it to ${n} at a time.`;
    };
    // A native substring search is far cheaper than a token scan, and most files mention neither.
    const checkPMap = sourceCode.text.includes('p-map') || sourceCode.text.includes('bluebird');

    /**
     * Recommended reports a fan-out whose size comes from data (rows, responses, listings,
     * requests, messages); strict also reports collections of unknown origin and large literals.
     * Neither reports a page-capped query or work that queues on one connection or transaction.
     */
    function reportable(fanOut: FanOut): boolean {
      if (fanOut.work && isQueuedWork(sourceCode, fanOut.work)) return false;
      const origin = originOf(fanOut);
      // Bounded by construction: the program's own lists and configuration (a literal too long is still strict's).
      if (origin === 'capped' || (origin === 'declared' && fanOut.size.kind === 'unknown')) return false;
      // A name guess (`this.plugins`, `s.closeAll()`) speaks only for values nothing else is
      // known about, which only strict reports; a collection of rows is reported whatever it is called.
      if (fanOut.guess && origin !== 'data') return false;
      // A list the code cuts into slices is one its author expects to be long, wherever it comes from.
      if (fanOut.size.kind === 'chunk' && origin === 'unknown') return true;
      // So is one gathered from every slice of such a list: the burst is the whole list again.
      if (origin === 'unknown' && fanOut.collection && spansSlicedList(collections(), fanOut.collection)) return true;
      return origin === 'data' || strict;
    }

    function originOf(fanOut: FanOut): ValueOrigin {
      if (fanOut.shape === 'literal') return 'declared';
      const source = fanOut.size.kind === 'chunk' ? fanOut.size.chunk.source : fanOut.collection;
      return source ? valueOrigin(originContext, source) : 'unknown';
    }

    /** Inside the mapper of a fan-out that is itself reported: the outer level is the one to bound. */
    function insideReportedFanOut(node: TSESTree.Node): boolean {
      for (let current = node.parent; current; current = current.parent) {
        if (!isFunctionNode(current)) continue;
        const mapCall = current.parent;
        if (mapCall?.type !== AST_NODE_TYPES.CallExpression || mapCall.arguments[0] !== current) continue;
        const dropped = describeDroppedFanOut(collections(), mapCall, maxElements);
        if (dropped && reportable(dropped)) return true;
        let outer: TSESTree.Node | undefined = mapCall.parent;
        while (outer && (outer.type === AST_NODE_TYPES.TSAsExpression || outer.type === AST_NODE_TYPES.TSNonNullExpression)) outer = outer.parent;
        // `const results = users.map(async …); await Promise.allSettled(results)`: the stored map is the outer level.
        for (const joined of storedFanOuts(sourceCode, mapCall)) {
          const fanOut = describeFanOut(collections(), joined, maxElements);
          if (fanOut?.mapCall === mapCall && fanOut.size.kind !== 'chunk' && reportable(fanOut)) return true;
        }
        if (outer?.type !== AST_NODE_TYPES.CallExpression || outer.arguments[0] !== mapCall || !promiseCombinator(sourceCode, outer)) continue;
        const fanOut = describeFanOut(collections(), mapCall, maxElements);
        if (fanOut && fanOut.size.kind !== 'chunk' && reportable(fanOut)) return true;
      }
      return false;
    }

    function reportFanOut(call: TSESTree.CallExpression, method: string, fanOut: FanOut): void {
      if (!reportable(fanOut) || insideReportedFanOut(call)) return;
      if (fanOut.size.kind === 'chunk') return reportChunk(call, method, fanOut);
      const related: EvidenceLocation[] = [];
      let where = '';
      if (fanOut.shape === 'stored' && fanOut.origin) {
        where = ` (mapped at line ${fanOut.origin.loc.start.line})`;
        related.push(evidenceAt(fanOut.origin, 'the calls start here, one per item'));
      } else if (fanOut.shape === 'push' && fanOut.origin) {
        where = ` (pushed at line ${fanOut.origin.loc.start.line})`;
        related.push(evidenceAt(fanOut.origin, 'one call starts here per loop iteration'));
        if (fanOut.loop) related.push(evidenceAt(fanOut.loop, 'the loop over the collection'));
      }
      const what = fanOut.shape === 'literal'
        ? `${fanOut.count} calls`
        : `one call per item of \`${describe(fanOut.collection)}\``;
      recordEvidence(context, call, 'unboundedFanOut', related);
      context.report({
        node: call,
        messageId: 'unboundedFanOut',
        data: { method, what, where, remedy: remedy(method, concurrency) },
        suggest: fanOutSuggestions(call, method, fanOut),
      });
    }

    function reportChunk(call: TSESTree.CallExpression, method: string, fanOut: FanOut): void {
      if (fanOut.size.kind !== 'chunk') return;
      const chunk = fanOut.size.chunk;
      // Slices of one run one call at a time: sequential, no idle slots to speak of.
      if (chunk.sizeValue === 1 || !(chunk.handedBy ? settlesWithin(call) : isAwaitedIn(call, chunk.loop))) return;
      const size = chunk.sizeText ?? sourceCode.getText(chunk.size);
      const evidence = [evidenceAt(chunk.cut, 'the slice is cut here')];
      if (chunk.handedBy) evidence.push(evidenceAt(chunk.handedBy, 'each slice is handed over here, one after another'));
      recordEvidence(context, call, 'chunkedBatch', evidence);
      const suggest = suggestions(sliceRewrite(sourceCode, chunk, call, method, declared()), size);
      context.report({
        node: call,
        messageId: 'chunkedBatch',
        data: {
          method, size: /^\d+$/.test(size) ? size : `\`${size}\``, source: describe(chunk.source), line: chunk.loop.loc.start.line,
          remedy: remedy(method, size).replace('Bound it', 'Replace the slices'),
        },
        suggest,
      });
    }

    function fanOutSuggestions(call: TSESTree.CallExpression, method: string, fanOut: FanOut): TSESLint.SuggestionReportDescriptor<MessageId>[] {
      return suggestions(fanOutRewrite(sourceCode, call, method, fanOut, declared(), concurrency), concurrency);
    }

    function suggestions(rewrite: BoundingRewrite | null, n: string): TSESLint.SuggestionReportDescriptor<MessageId>[] {
      return rewrite ? [suggestion(rewrite.library === 'p-map' ? 'usePMap' : 'useLimiter', n, rewrite.edits)] : [];
    }

    function suggestion(messageId: 'usePMap' | 'useLimiter' | 'addConcurrency', n: string, edits: TextEdit[]): TSESLint.SuggestionReportDescriptor<MessageId> {
      return {
        messageId,
        data: { concurrency: n },
        fix: (fixer) => mergeEdits(edits).map((e) => fixer.replaceTextRange([e.range[0], e.range[1]], e.text)),
      };
    }

    function checkPMapCall(call: TSESTree.CallExpression): void {
      const found = pMapCall(sourceCode, call, concurrency);
      if (!found) return;
      const { input, mapper } = found;
      const size = collectionSize(collections(), input);
      if (size.kind === 'bounded' && size.count <= maxElements) return;
      if (mapperWork(collections(), mapper) !== 'async') return;
      const teardown = teardownOf(collections(), mapper, input);
      if (teardown === 'fact' || isQueuedWork(sourceCode, mapper)) return;
      const origin = valueOrigin(originContext, input);
      if (origin === 'capped' || (origin === 'declared' && size.kind === 'unknown') || (origin !== 'data' && (!strict || teardown === 'guess')) || insideReportedFanOut(call)) return;
      context.report({
        node: call,
        messageId: 'unboundedPMap',
        data: { callee: sourceCode.getText(call.callee), source: describe(input), concurrency },
        suggest: [suggestion('addConcurrency', concurrency, [found.edit])],
      });
    }

    function reportDropped(call: TSESTree.CallExpression, method: string, fanOut: FanOut): void {
      if (!reportable(fanOut) || insideReportedFanOut(call)) return;
      // A forEach whose callback can reject is also no-orphaned-promise's `forEachAsync`: its `for…of`
      // rewrite ends the burst too, where a limiter around each call would leave every rejection unhandled.
      const rejects = forEachDropsRejections(sourceCode, call);
      context.report({
        node: call,
        messageId: 'unawaitedFanOut',
        data: {
          method, source: describe(fanOut.collection),
          remedy: rejects ? 'Await the calls one at a time (no-orphaned-promise\'s `for…of` rewrite) or under a bound, in a `try` that handles their errors.' : remedy('all', concurrency),
        },
        suggest: rejects ? [] : fanOutSuggestions(call, method, fanOut),
      });
    }

    function describe(node: TSESTree.Node | null): string {
      const text = node ? sourceCode.getText(node).replace(/\s+/g, ' ') : '';
      return node && text.length <= 40 ? text : 'the input';
    }

    return {
      CallExpression(call) {
        const combinator = promiseCombinator(sourceCode, call);
        const arg = call.arguments[0];
        if (combinator !== null) {
          const fanOut = arg && arg.type !== AST_NODE_TYPES.SpreadElement ? describeFanOut(collections(), arg, maxElements) : null;
          if (fanOut) reportFanOut(call, combinator, fanOut);
          return;
        }
        const callee = skipTransparent(call.callee);
        const method = callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : null;
        if (method === 'forEach' || method === 'map' || method === 'flatMap') {
          const dropped = describeDroppedFanOut(collections(), call, maxElements);
          if (dropped) reportDropped(call, method, dropped);
        }
        if (checkPMap) checkPMapCall(call);
      },
    };
  },
});

/** The arguments of the combinators that join the promises `mapCall` stores in a variable (`Promise.all(results)`). */
function storedFanOuts(sourceCode: Readonly<TSESLint.SourceCode>, mapCall: TSESTree.CallExpression): TSESTree.Node[] {
  const declarator = mapCall.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== mapCall || declarator.id.type !== AST_NODE_TYPES.Identifier) return [];
  const joined: TSESTree.Node[] = [];
  for (const reference of findVariable(sourceCode, declarator.id)?.references ?? []) {
    const call = reference.identifier.parent;
    if (call?.type === AST_NODE_TYPES.CallExpression && call.arguments[0] === reference.identifier && promiseCombinator(sourceCode, call)) joined.push(reference.identifier);
  }
  return joined;
}
