import * as path from 'node:path';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import type { Acquisition, Edit, Holder, SleepAnalysis, SleepLink, SleepPlacement, SleepSite } from '../analysis';
import {
  callbackHolder,
  createSleepAnalysis,
  detachedSleepsHolding,
  findManualAcquisitions,
  getPermitCall,
  heldChains,
  helperName,
  isFunctionNode,
  isHeldAt,
  manualHolder,
  mayContainPermitCalls,
  mayContainSleeps,
  moveRetryLoopOutside,
  onlyCalledHolding,
  placeSleep,
  resolveReference,
  shortText,
  skipTransparent,
  sleepChain,
  sleepsBeforeNestedRelease,
  sourceFileOf,
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
  | 'helperSleepsHoldingPermit'
  | 'importedSleepsHoldingPermit'
  | 'swapRetryNesting'
  | 'moveRetryLoopOutside';

/** A sleep reached from inside a held region: `at` is the node in the region that reaches it. */
interface Held {
  at: TSESTree.Node;
  site: SleepSite;
  holder: Holder;
  callback: TSESTree.Node | null;
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
        '`{{sleep}}` {{verb}} (`{{inner}}`, {{innerAt}}) while the {{noun}} from `{{taker}}` (line {{line}}) is held: {{cost}}. Keep the sleep or the retry outside the {{noun}}.',
      helperSleepsHoldingPermit:
        '`{{sleep}}` in `{{helper}}` {{verb}} while the {{noun}} from `{{taker}}` (line {{line}}) is held, as on every call of `{{helper}}`: {{cost}}. Move the sleep or the retry out of `{{helper}}`, or call it after the {{noun}} is released.',
      importedSleepsHoldingPermit:
        '`{{helper}}` from `{{module}}` {{verb}} (`{{inner}}`, {{innerAt}}) while the {{noun}} from `{{taker}}` (line {{line}}) is held: {{cost}}. Call it outside the {{noun}}, or keep its sleep or retry outside.',
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
    const found: Held[] = [];

    function report(placement: SleepPlacement, held: Held, others: readonly Held[]): void {
      const { holder } = held;
      const { leaf, kind } = placement;
      const retry = leaf.kind === 'retry' || leaf.retryLoop !== null;
      const base = {
        noun: holder.noun,
        taker: holder.taker,
        line: String(holder.at.loc.start.line),
        cost: `${costText(holder)} ${retry ? 'through every backoff' : 'for the whole delay'}`,
        verb: retry ? 'backs off between attempts' : 'sleeps',
        // Always in the linted file: a placement moves only through its own helpers.
        sleep: sleepText(sourceCode, placement.node),
        inner: sleepText(leaf.sourceCode, leaf.node),
        innerAt: placeText(leaf),
      };
      let messageId: MessageId = retry ? 'retryHoldingPermit' : 'sleepHoldingPermit';
      let data: Record<string, string> = base;
      if (kind === 'helper') {
        const last = placement.before.at(-1) as SleepLink;
        messageId = 'helperSleepsHoldingPermit';
        data = { ...base, helper: helperName(last.callee) ?? shortText(sourceCode.getText(last.node)) };
      } else if (kind === 'callee') {
        messageId = 'calleeSleepsHoldingPermit';
      } else if (kind === 'imported') {
        const callee = placement.node.type === AST_NODE_TYPES.CallExpression ? placement.node.callee : placement.node;
        messageId = 'importedSleepsHoldingPermit';
        data = { ...base, helper: shortText(sourceCode.getText(callee)), module: resolveReference(sourceCode, callee)?.module ?? '?' };
      }
      const related = [evidenceAt(holder.at, `${holder.noun} taken here`)];
      for (const other of others) {
        if (other.holder.at !== holder.at) related.push(evidenceAt(other.holder.at, `${other.holder.noun} also taken here`));
      }
      for (const link of placement.before) related.push(evidenceAt(link.node, `calls \`${linkName(link)}\` holding the ${holder.noun}`));
      for (const link of placement.after.slice(1)) related.push(evidenceAt(link.node, `calls \`${linkName(link)}\``, fileOf(link.sourceCode)));
      if (leaf.node !== placement.node) related.push(evidenceAt(leaf.node, retry ? 'backs off here' : 'sleeps here', fileOf(leaf.sourceCode)));
      for (let origin = leaf.origin; origin; origin = origin.origin) {
        related.push(evidenceAt(origin.node, 'the timer it waits for', fileOf(origin.sourceCode)));
      }
      recordEvidence(context, placement.node, messageId, related);
      const suggest = kind === 'direct' ? suggestions(leaf, holder, held.callback) : [];
      context.report({ node: placement.node, messageId, data, suggest });
    }

    function fileOf(code: Readonly<TSESLint.SourceCode>): string | undefined {
      return code === sourceCode ? undefined : (sourceFileOf(code) ?? undefined);
    }

    /** `line 11`, or `line 4 of utils/retry.ts` for a place in another module. */
    function placeText(site: SleepSite): string {
      const line = `line ${site.node.loc.start.line}`;
      const file = fileOf(site.sourceCode);
      if (!file) return line;
      return `${line} of ${path.relative(path.dirname(context.filename), file).split(path.sep).join('/')}`;
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
        for (const site of sleeps().sitesIn(expr)) found.push({ at: site.node, site, holder, callback });
        return;
      }
      // `limit(fetchWithRetry)`: a same-file or imported function run under the permit.
      const target = sleeps().calleeSites(expr);
      const inner = target?.sites[0];
      if (!target || !inner) return;
      const site: SleepSite = { ...inner, via: inner, callee: target.fn, retryLoop: null, sourceCode, origin: null };
      found.push({ at: expr, site, holder, callback: null });
    }

    function checkManual(acquisition: Acquisition): void {
      const holder = manualHolder(sourceCode, acquisition);
      const sites = acquisition.function ? sleeps().sitesIn(acquisition.function) : sleeps().sitesUnder(acquisition.scope);
      for (const site of sites) {
        if (isHeldAt(acquisition, site.node)) found.push({ at: site.node, site, holder, callback: null });
      }
      for (const site of detachedSleepsHolding(sourceCode, sleeps(), acquisition)) found.push({ at: site.node, site, holder, callback: null });
      for (const site of sleepsBeforeNestedRelease(sleeps(), acquisition)) found.push({ at: site.node, site, holder, callback: null });
    }

    /**
     * Each sleep is reported once, where issue 17's table puts it: at the sleep when every call of
     * the helper it is in holds a permit, else at the call. Known only once every region is seen.
     */
    function reportAll(): void {
      if (found.length === 0) return;
      const onlyHeld = onlyCalledHolding(sourceCode, sleeps(), new Set(found.map((f) => f.at)));
      const byNode = new Map<TSESTree.Node, { placement: SleepPlacement; held: Held; others: Held[] }>();
      for (const held of found) {
        for (const chain of heldChains(sourceCode, sleeps(), sleepChain(held.at, held.site), onlyHeld)) {
          const placement = placeSleep(sourceCode, chain, onlyHeld);
          const hit = byNode.get(placement.node);
          if (hit) hit.others.push(held);
          else byNode.set(placement.node, { placement, held, others: [] });
        }
      }
      for (const { placement, held, others } of byNode.values()) report(placement, held, others);
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
        // A connection opened for this call alone keeps nobody else waiting while it sleeps.
        for (const acquisition of acquisitions) if (acquisition.kind !== 'connection') checkManual(acquisition);
        reportAll();
      },
    };
  },
});

function linkName(link: SleepLink): string {
  return helperName(link.callee) ?? shortText(link.sourceCode.getText(link.node));
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
