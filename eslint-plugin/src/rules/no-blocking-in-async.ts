import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import type {
  BlockingChain, BlockingOptions, ChainAnalysis, FunctionNode, ModuleExportEntry, WaitLoop,
} from '../analysis';
import {
  DEFAULT_RANDOM_BYTES_THRESHOLD,
  busyWait,
  calleeName,
  createChainAnalysis,
  describeChain,
  enclosingHandler,
  enclosingPromiseCallback,
  functionName,
  getAsyncContext,
  isOncePerProcess,
  isPlainSync,
  isRepeatedIn,
  isSingleMetadataCall,
  matchBlockingCall,
  mayBlock,
  mayBlockInLocalModules,
  mayBeBlockingName,
  mayRegisterHandlers,
  onlyCalledFrom,
  resolveCalleeFunction,
  roleGlobs,
  skipTransparent,
  unsetGuard,
} from '../analysis';
import { createRule } from '../util/createRule';
import { getOptionalParserServices } from '../util/parserServices';
import { evidenceAt, recordEvidence } from '../util/evidence';
import { twinRewrite } from '../util/asyncTwinFix';
import { blockingCost, calleeText, describeWhere, runEvidence, type RunContext } from '../util/blockingReports';
import { helperPlacement } from '../util/helperPlacement';
import { createQuietness } from '../util/quietCode';
import { reportedInPlace, servedInPlace, servedRunContext } from '../util/servedInPlace';
import { blockingEntrySchema, getSharedSettings, isStrict } from '../util/settings';

export type Options = [
  {
    blockingCalls?: ModuleExportEntry[];
    allow?: ModuleExportEntry[];
    randomBytesThreshold?: number;
    checkHelpers?: boolean;
  },
];
export type MessageId = 'blockingCall' | 'blockingHelper' | 'busyWait' | 'invalidSetting' | 'useAsyncTwin';

export default createRule<Options, MessageId>({
  name: 'no-blocking-in-async',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow synchronous blocking calls in async code, directly or through synchronous helpers',
      recommended: true,
      requiresTypeChecking: false,
    },
    hasSuggestions: true,
    messages: {
      blockingCall:
        '`{{name}}` blocks the event loop in {{where}}: {{cost}}. Use its asynchronous form.',
      blockingHelper:
        '`{{callee}}()` blocks the event loop: it {{chain}}. It runs in {{where}}, so {{cost}}; make the helper async or move the work off the loop.',
      busyWait:
        'This loop spins on `{{clock}}` (line {{line}}) without awaiting, in {{where}}: it holds the event loop for the whole wait and nothing else runs. Await a timer inside the loop instead.',
      invalidSetting: '{{problem}}',
      useAsyncTwin: 'Replace with `{{replacement}}`.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          blockingCalls: { ...blockingEntrySchema, description: 'Extra module exports that block (added to `settings["async-hazards"].blockingCalls`).' },
          allow: { ...blockingEntrySchema, description: 'Module exports never reported, even when catalogued.' },
          randomBytesThreshold: {
            type: 'integer',
            minimum: 0,
            description: 'Bytes above which a synchronous `crypto.randomBytes` / `randomFillSync` counts as blocking.',
          },
          checkHelpers: { type: 'boolean', description: 'Follow calls into synchronous helpers that block.' },
        },
        additionalProperties: false,
      },
    ],
  },
  defaultOptions: [{ blockingCalls: [], allow: [], randomBytesThreshold: DEFAULT_RANDOM_BYTES_THRESHOLD, checkHelpers: true }],
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    const settings = getSharedSettings(context);
    const blocking: BlockingOptions = {
      blockingCalls: [...settings.blockingCalls, ...(options.blockingCalls ?? [])],
      allow: options.allow ?? [],
      randomBytesThreshold: options.randomBytesThreshold ?? DEFAULT_RANDOM_BYTES_THRESHOLD,
    };
    const services = getOptionalParserServices(context);
    const typed = services.program ? services : null;
    // A setting that is not a list of globs is said in every file, like an invalid rule option.
    const problems = roleGlobs(context.settings, context.cwd).problems;
    const checkSettings = (program: TSESTree.Program): void => {
      for (const problem of problems) context.report({ node: program, messageId: 'invalidSetting', data: { problem } });
    };
    if (!typed && !mayBlock(sourceCode, blocking) && !mayBlockInLocalModules(sourceCode, blocking)) {
      return problems.length > 0 ? { Program: checkSettings } : {};
    }
    const checkHelpers = options.checkHelpers !== false;
    // `quiet`: chains pass over a helper's single metadata call (recommended, unless the helper runs in a loop).
    let chains: ChainAnalysis | null = null;
    let quietChains: ChainAnalysis | null = null;
    const chainAnalysis = (quiet: boolean): ChainAnalysis => quiet
      ? (quietChains ??= createChainAnalysis(sourceCode, { ...blocking, quietMetadata: true }, typed))
      : (chains ??= createChainAnalysis(sourceCode, blocking, typed));
    const filename = context.filename;
    const strict = isStrict(context);
    const inPlaceSettings = { blocking, checkHelpers, strict };
    const handlersPossible = mayRegisterHandlers(sourceCode, filename);
    // Blocking that lives in one of the project's modules, reached through a helper it exports.
    const blockingReachable = checkHelpers && mayBlockInLocalModules(sourceCode, blocking);

    /**
     * Where `node` runs when other work waits on it: async code, or a function a server framework
     * runs per request (`app.get('/', (req, res) => …)`), even a synchronous one.
     */
    function contextOf(node: TSESTree.Node): RunContext | null {
      const ctx = getAsyncContext(node);
      if (ctx) return ctx;
      const found = handlersPossible ? enclosingHandler(sourceCode, filename, node) : null;
      if (found) return { asyncFunction: found.handler, via: found.via, registration: found.registration };
      // `db.find(id).then(row => fs.unlinkSync(row.path))` in a handler: the callback runs later, on the same path.
      const settled = enclosingPromiseCallback(node);
      const outer = settled ? contextOf(settled.call) : null;
      return outer && settled ? { ...outer, via: [...settled.via, settled.callback, ...outer.via], later: true } : null;
    }

    const quietness = createQuietness(sourceCode, context, strict);

    function report(
      node: TSESTree.Node,
      messageId: MessageId,
      found: RunContext,
      data: Record<string, string>,
      evidence: ReturnType<typeof evidenceAt>[],
      suggest: Suggestion[] = [],
      judged = false,
    ): boolean {
      // Asked only of what would be reported: the phase may read the files that call this one.
      // A helper only serving code calls was judged at those calls.
      const here = judged ? null : quietness(node, found.asyncFunction);
      if (here?.quiet) return false;
      const ctx = here?.inFlight ? { ...found, inFlight: here.inFlight } : found;
      recordEvidence(context, node, messageId, [...evidence, ...runEvidence(ctx)]);
      // What it costs where it was judged. A synchronous helper is reported where it is because the
      // process runs it while it serves, as its `where` says; so is one judged at its serving callers.
      const cost = blockingCost(ctx.judged ?? (ctx.sync ? 'serving' : here?.judged ?? 'serving'), ctx.inFlight);
      context.report({ node, messageId, data: { ...data, where: describeWhere(ctx), cost }, suggest });
      return true;
    }

    // Helper calls are judged at the end of the file, and only when something outside async code
    // can block at all: most files have no blocking helper, and then no call graph is needed.
    const helperCalls: { call: TSESTree.CallExpression; ctx: RunContext }[] = [];
    const servingCalls = new Map<TSESTree.CallExpression, RunContext>();
    let blockingOutsideAsync = false;
    // Lines of blocking calls reported where they are, in a synchronous helper: a chain ending at one says it again.
    const reportedInSync = new Set<number>();

    function checkCall(call: TSESTree.CallExpression): void {
      // `$.s(options)` only binds options; the tagged template around it runs the command.
      if (call.parent.type === AST_NODE_TYPES.TaggedTemplateExpression && call.parent.tag === call) return;
      const ctx = contextOf(call);
      if (!ctx) {
        const outside = mayBeBlockingName(calleeName(call), blocking) ? matchBlockingCall(sourceCode, call, blocking) : null;
        if (outside) blockingOutsideAsync = true;
        const served = outside ? servedInPlace(sourceCode, outside, context, inPlaceSettings) : null;
        if (!outside || !served) return;
        const { ctx: where, evidence } = servedRunContext(sourceCode, served);
        if (report(call, 'blockingCall', where, { name: outside.api.name }, evidence)) reportedInSync.add(call.loc.start.line);
        return;
      }
      const direct = matchBlockingCall(sourceCode, call, blocking);
      // Lazy initialisation and memoised reads stall once, at first use; that is not per request.
      // One metadata syscall (`existsSync(p)`, not in a loop) takes microseconds: strict reports it.
      if (direct && (isOncePerProcess(sourceCode, call) || (!strict && isSingleMetadataCall(direct, ctx.asyncFunction)))) return;
      if (direct) {
        const rewrite = direct.api.twin ? twinRewrite(sourceCode, call, direct.api.twin, ctx) : null;
        const suggestion: Suggestion | null = rewrite ? { messageId: 'useAsyncTwin', data: { replacement: rewrite.label }, fix: rewrite.fix } : null;
        report(call, 'blockingCall', ctx, { name: direct.api.name }, [], suggestion ? [suggestion] : []);
        return;
      }
      if (checkHelpers) {
        helperCalls.push({ call, ctx });
        servingCalls.set(call, ctx);
      }
    }

    /**
     * A same-file helper every call of which serves (issue 17's placement): its blocking calls
     * are reported where they are, once, naming the callers; a helper also called at startup or
     * from outside keeps its reports at the serving calls. The chain from a call depends on the
     * call when part of the helper cannot run from there (`unsetGuard`): that call keeps its report.
     */
    const servedOnly = onlyCalledFrom(sourceCode, (call) => {
      const ctx = servingCalls.get(call);
      if (!ctx || isOncePerProcess(sourceCode, call)) return false;
      const target = resolveCalleeFunction(sourceCode, call.callee);
      return (!target || !unsetGuard(sourceCode, call, target)) && !quietness(call, ctx.asyncFunction).quiet;
    });
    const placed = new Set<FunctionNode>();

    function reportInHelper(fn: FunctionNode): void {
      if (placed.has(fn)) return;
      placed.add(fn);
      const found = helperPlacement(sourceCode, fn, servingCalls, {
        blocking,
        strict,
        serves: (node) => contextOf(node) !== null,
        reportedLines: reportedInSync,
        judgeCall: (call, within) => quietness(call, within).judged,
      });
      for (const entry of found.calls) {
        if ('follow' in entry) checkHelperCall(entry.call, found.ctx, true);
        else report(entry.call, 'blockingCall', found.ctx, { name: entry.name }, found.evidence, [], true);
      }
      for (const { loop, wait } of found.waits) {
        report(loop, 'busyWait', found.ctx, { clock: wait.clockName, line: String(wait.clock.loc.start.line) }, [evidenceAt(wait.clock, 'clock read here'), ...found.evidence], [], true);
      }
    }

    function checkHelperCall(call: TSESTree.CallExpression, ctx: RunContext, judged = false): void {
      // `templates ??= loadTemplates()`: the helper runs once per process, whatever it does.
      if (isOncePerProcess(sourceCode, call)) return;
      const target = resolveCalleeFunction(sourceCode, call.callee);
      let chain: BlockingChain | null = null;
      let callee: string | null = null;
      const chainsHere = chainAnalysis(!strict && !isRepeatedIn(call, ctx.asyncFunction));
      if (target) {
        // An immediately invoked function is part of the async code itself; its calls are checked directly.
        if (target === skipTransparent(call.callee) || !isPlainSync(target)) return;
        // `abort()` before `dest` is assigned: its `dest && fs.existsSync(dest)` does not run from here.
        chain = chainsHere.helperChain(target, unsetGuard(sourceCode, call, target) ?? undefined);
        if (chain && servedOnly(target)) {
          reportInHelper(target);
          return;
        }
        callee = functionName(target) ?? 'function';
      } else {
        // A helper exported by one of the project's modules: its chain, in that module's files.
        chain = blockingReachable ? chainsHere.importedChain(call) : null;
        if (!chain && typed) {
          chain = chainsHere.typedChain(call);
          if (chain) chain = { links: chain.links.slice(1) };
        }
        callee = chain ? calleeText(call) : null;
      }
      if (!chain || callee === null || chain.links.length === 0) return;
      const last = chain.links[chain.links.length - 1];
      if (last?.file === null && reportedInSync.has(last.line)) return;
      // Blocking I/O that a serving caller in another file reaches is reported where it is, in its helper's file: once is enough.
      if (last && reportedInPlace(last, sourceCode, context, inPlaceSettings)) return;
      const evidence = chain.links.flatMap((l) => (l.node ? [evidenceAt(l.node, l.text, l.path)] : []));
      report(call, 'blockingHelper', ctx, { callee, chain: describeChain(chain) }, evidence, [], judged);
    }

    function checkTag(tagged: TSESTree.TaggedTemplateExpression): void {
      const ctx = contextOf(tagged);
      const direct = matchBlockingCall(sourceCode, tagged, blocking);
      if (!direct) return;
      if (ctx) report(tagged, 'blockingCall', ctx, { name: direct.api.name }, []);
      else blockingOutsideAsync = true;
    }

    function checkLoop(loop: WaitLoop): void {
      const ctx = contextOf(loop);
      if (!ctx && (blockingOutsideAsync || !checkHelpers)) return;
      const wait = busyWait(sourceCode, loop);
      if (!wait) return;
      if (!ctx) {
        blockingOutsideAsync = true;
        return;
      }
      report(loop, 'busyWait', ctx, { clock: wait.clockName, line: String(wait.clock.loc.start.line) }, [
        evidenceAt(wait.clock, 'clock read here'),
      ]);
    }

    function checkHelperCalls(): void {
      if (!blockingOutsideAsync && !typed && !blockingReachable) return;
      for (const { call, ctx } of helperCalls) checkHelperCall(call, ctx);
    }

    return {
      Program: checkSettings,
      CallExpression: checkCall,
      TaggedTemplateExpression: checkTag,
      WhileStatement: checkLoop,
      DoWhileStatement: checkLoop,
      ForStatement: checkLoop,
      'Program:exit': checkHelperCalls,
    };
  },
});

type Suggestion = TSESLint.SuggestionReportDescriptor<MessageId>;
