import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { Acquisition, Edit, PermitCall, SleepAnalysis, SleepSite } from '../analysis';
import {
  capacityOf,
  createSleepAnalysis,
  findManualAcquisitions,
  getCallGraph,
  getConstruction,
  getPermitCall,
  isFunctionNode,
  isHeldAt,
  mayContainPermitCalls,
  mayContainSleeps,
  moveRetryLoopOutside,
  skipTransparent,
  swappableCallback,
  swapRetryNesting,
} from '../analysis';
import { createRule } from '../util/createRule';
import { getOptionalParserServices } from '../util/parserServices';
import { evidenceAt, recordEvidence } from '../util/evidence';
import type { ModuleExport } from '../util/settings';
import { getSharedSettings, moduleExportListSchema } from '../util/settings';

export type Options = [
  {
    permitCallbacks: ModuleExport[];
    sleeps: ModuleExport[];
  },
];

export type MessageId =
  | 'sleepHoldingPermit'
  | 'retryHoldingPermit'
  | 'calleeSleepsHoldingPermit'
  | 'swapRetryNesting'
  | 'moveRetryLoopOutside';

/** What is held, for messages: the permit's noun and the unit its capacity counts. */
interface Holder {
  noun: string;
  unit: string;
  taker: string;
  at: TSESTree.Node;
  capacity: number | null;
  permitCall: PermitCall | null;
}

export default createRule<Options, MessageId>({
  name: 'no-sleep-holding-permit',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow retry sleeps and backoff while a lock or concurrency permit is held',
      recommended: true,
      requiresTypeChecking: false,
    },
    hasSuggestions: true,
    messages: {
      sleepHoldingPermit:
        '`{{sleep}}` runs while the {{noun}} from `{{taker}}` (line {{line}}) is held: {{cost}}. Sleep after the {{noun}} is released.',
      retryHoldingPermit:
        '`{{sleep}}` backs off between attempts while the {{noun}} from `{{taker}}` (line {{line}}) is held: {{cost}}. Take the {{noun}} per attempt instead, inside the retry.',
      calleeSleepsHoldingPermit:
        '`{{sleep}}` {{verb}} (`{{inner}}`, line {{innerLine}}) while the {{noun}} from `{{taker}}` (line {{line}}) is held: {{cost}}. Keep the sleep or the retry outside the {{noun}}.',
      swapRetryNesting: 'Retry outside, take the {{noun}} inside: each attempt takes and returns its own {{noun}}.',
      moveRetryLoopOutside: 'Move the retry loop outside `{{taker}}`: only each attempt holds the {{noun}}.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          permitCallbacks: {
            ...moduleExportListSchema,
            description:
              'Extra calls whose callback runs holding a permit: `{ module, export }` for a function, `{ module?, method }` for a method. Added to `settings["async-hazards"].permitCallbacks`.',
          },
          sleeps: {
            ...moduleExportListSchema,
            description:
              'Extra promise-returning sleeps: `{ module, export }` or `{ module?, method }`. Added to `settings["async-hazards"].sleeps`.',
          },
        },
        additionalProperties: false,
      },
    ],
  },
  defaultOptions: [{ permitCallbacks: [], sleeps: [] }],
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    const settings = getSharedSettings(context);
    const customPermits = [...settings.permitCallbacks, ...options.permitCallbacks];
    const extraSleeps = [...settings.sleeps, ...options.sleeps];
    const services = getOptionalParserServices(context);
    if (!mayContainSleeps(sourceCode, extraSleeps, Boolean(services.program))) return {};
    let analysis: SleepAnalysis | null = null;
    const sleeps = (): SleepAnalysis =>
      (analysis ??= createSleepAnalysis(sourceCode, extraSleeps, services.program ? services : null));
    const reported = new Set<TSESTree.Node>();

    function report(site: SleepSite, at: TSESTree.Node, holder: Holder, callback: TSESTree.Node | null): void {
      if (reported.has(at)) return;
      reported.add(at);
      const inner = innermost(site);
      const retry = site.kind === 'retry' || inner.retryLoop !== null;
      const messageId: MessageId = site.via || at !== site.node ? 'calleeSleepsHoldingPermit' : retry ? 'retryHoldingPermit' : 'sleepHoldingPermit';
      const data = {
        sleep: sleepText(sourceCode, at),
        noun: holder.noun,
        taker: holder.taker,
        line: String(holder.at.loc.start.line),
        cost: `${costText(holder)} ${retry ? 'through every backoff' : 'for the whole delay'}`,
        verb: retry ? 'backs off between attempts' : 'sleeps',
        inner: sleepText(sourceCode, inner.node),
        innerLine: String(inner.node.loc.start.line),
      };
      const related = [evidenceAt(holder.at, `${holder.noun} taken here`)];
      if (messageId === 'calleeSleepsHoldingPermit') related.push(evidenceAt(inner.node, 'sleeps here'));
      recordEvidence(context, at, messageId, related);
      context.report({ node: at, messageId, data, suggest: suggestions(site, holder, callback) });
    }

    function suggestions(site: SleepSite, holder: Holder, callback: TSESTree.Node | null): TSESLint.SuggestionReportDescriptor<MessageId>[] {
      const taker = holder.permitCall?.call;
      const fn = taker && callback ? swappableCallback(sourceCode, taker, callback) : null;
      if (!taker || !fn || site.via) return [];
      let edits: Edit[] | null = null;
      let messageId: MessageId = 'swapRetryNesting';
      if (site.kind === 'retry' && site.node.type === AST_NODE_TYPES.CallExpression) {
        const edit = swapRetryNesting(sourceCode, taker, fn, site.node);
        edits = edit ? [edit] : null;
      } else if (site.retryLoop) {
        edits = moveRetryLoopOutside(sourceCode, taker, fn, site.retryLoop);
        messageId = 'moveRetryLoopOutside';
      }
      if (!edits) return [];
      const applied = edits;
      return [{
        messageId,
        data: { noun: holder.noun, taker: holder.taker },
        fix: (fixer) => applied.map((e) => fixer.replaceTextRange([e.range[0], e.range[1]], e.text)),
      }];
    }

    function checkCallback(callback: TSESTree.Node, holder: Holder): void {
      const expr = skipTransparent(callback);
      if (isFunctionNode(expr)) {
        for (const site of sleeps().sitesIn(expr)) report(site, site.node, holder, callback);
        return;
      }
      // `limit(fetchWithRetry)`: a same-file function run under the permit.
      const target = getCallGraph(sourceCode).resolveCallee(expr);
      const inner = target ? sleeps().sitesIn(target.node)[0] : undefined;
      if (inner) report({ node: inner.node, kind: inner.kind, via: inner, retryLoop: null }, callback, holder, null);
    }

    function checkManual(acquisition: Acquisition): void {
      const holder = manualHolder(sourceCode, acquisition);
      const sites = acquisition.function ? sleeps().sitesIn(acquisition.function) : sleeps().sitesUnder(acquisition.scope);
      for (const site of sites) {
        if (isHeldAt(acquisition, site.node)) report(site, site.node, holder, null);
      }
    }

    const checkCallbacks = mayContainPermitCalls(sourceCode, customPermits);
    return {
      CallExpression(node): void {
        if (!checkCallbacks) return;
        const permit = getPermitCall(sourceCode, node, customPermits);
        if (!permit || permit.capacity === Infinity) return;
        const holder = callbackHolder(sourceCode, permit);
        for (const callback of permit.callbacks) checkCallback(callback, holder);
      },
      'Program:exit'(): void {
        const acquisitions = findManualAcquisitions(sourceCode, {
          resources: settings.resources,
          services: services.program ? services : null,
        });
        for (const acquisition of acquisitions) checkManual(acquisition);
      },
    };
  },
});

function innermost(site: SleepSite): SleepSite {
  let current = site;
  while (current.via) current = current.via;
  return current;
}

const LOCK_KINDS: ReadonlySet<string> = new Set(['mutex', 'keyedLock', 'webLock']);

function callbackHolder(sourceCode: Readonly<TSESLint.SourceCode>, permit: PermitCall): Holder {
  const lock = LOCK_KINDS.has(permit.kind);
  return {
    noun: lock ? 'lock' : 'permit',
    unit: permit.kind === 'semaphore' ? 'permits' : 'slots',
    taker: `${shortText(sourceCode.getText(permit.call.callee))}(...)`,
    at: permit.call,
    capacity: permit.capacity,
    permitCall: permit,
  };
}

function manualHolder(sourceCode: Readonly<TSESLint.SourceCode>, acquisition: Acquisition): Holder {
  const owner = acquisition.owner ? getConstruction(sourceCode, acquisition.owner) : null;
  let capacity: number | null = null;
  let noun = 'lock';
  let unit = 'permits';
  switch (acquisition.kind) {
    case 'lock':
    case 'fileLock':
    case 'distributedLock':
      capacity = 1;
      break;
    case 'permit':
      noun = 'permit';
      capacity = capacityOf(sourceCode, 'semaphore', owner);
      break;
    case 'dbClient':
      noun = 'pooled connection';
      unit = 'pool connections';
      capacity = capacityOf(sourceCode, 'dbPool', owner);
      break;
    case 'pooledResource':
      noun = 'pooled resource';
      unit = 'pooled resources';
      capacity = capacityOf(sourceCode, 'genericPool', owner);
      break;
  }
  return { noun, unit, taker: shortText(acquisition.acquireText), at: acquisition.acquireCall, capacity, permitCall: null };
}

function costText(holder: Holder): string {
  if (holder.capacity === 1) return 'every other caller waits';
  if (holder.capacity !== null && Number.isFinite(holder.capacity)) return `1 of ${holder.capacity} ${holder.unit} does nothing`;
  return `one of its ${holder.unit} does nothing`;
}

/** `await sleep(ms)`, `pRetry(...)`: the reported expression as the reader sees it, shortened. */
function sleepText(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string {
  const text = shortText(sourceCode.getText(node));
  return node.parent?.type === AST_NODE_TYPES.AwaitExpression ? `await ${text}` : text;
}

function shortText(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  if (flat.length <= 48) return flat;
  const open = flat.indexOf('(');
  return open > 0 && open <= 40 ? `${flat.slice(0, open)}(...)` : `${flat.slice(0, 45)}...`;
}
