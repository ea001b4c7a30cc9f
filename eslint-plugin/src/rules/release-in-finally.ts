import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import type { Acquisition, AcquisitionKind, ReleaseProblem, ReleaseSite, RequestHold } from '../analysis';
import {
  borrowsAtEveryCall, chainedLeak, checkReleasePaths, findManualAcquisitions, handsBackPromise, leaksOnlyRarely, processRole, requestHold, runsAgainAfterFailure,
  waitsUntilGranted,
} from '../analysis';
import { createRule } from '../util/createRule';
import { getOptionalParserServices } from '../util/parserServices';
import type { EvidenceLocation } from '../util/evidence';
import { evidenceAt, recordEvidence } from '../util/evidence';
import type { LeakContext } from '../util/leakCosts';
import { leakCost } from '../util/leakCosts';
import { exitKeyword, planMoveIntoTry, planRunExclusive, planWrapInTryFinally, synthesizedRelease } from '../util/releaseFixes';
import type { ResourceShape } from '../util/settings';
import { getSharedSettings, isStrict } from '../util/settings';
import { unendedPath } from '../util/unendedPaths';

export type Options = [{ resources?: ResourceShape[] }];

export type MessageId =
  | 'notInFinally'
  | 'earlyExit'
  | 'callbackExit'
  | 'neverReleased'
  | 'releasedOnlyInCatch'
  | 'unreleasedPath'
  | 'throwBeforeTry'
  | 'returnWithoutAwait'
  | 'throwBeforeHandOver'
  | 'leftToLaterMiddleware'
  | 'transactionNotEnded'
  | 'connectionNotClosed'
  | 'wrapInTryFinally'
  | 'useRunExclusive'
  | 'moveIntoTry'
  | 'addAwait';

const NOUN: Readonly<Record<AcquisitionKind, string>> = {
  lock: 'the lock',
  permit: 'the permit',
  dbClient: 'the connection',
  pooledResource: 'the pooled resource',
  fileLock: 'the file lock',
  distributedLock: 'the lock',
  transaction: 'the transaction',
  connection: 'the connection',
};

/** Leaks that happen only when something throws. */
const FAILURE_LEAKS: ReadonlySet<ReleaseProblem['kind']> = new Set(['notInFinally', 'throwBeforeTry', 'throwBeforeHandOver']);

export default createRule<Options, MessageId>({
  name: 'release-in-finally',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require locks, permits, pool clients and connections acquired by hand to be released on every path',
      recommended: true,
      requiresTypeChecking: false,
    },
    fixable: 'code',
    hasSuggestions: true,
    messages: {
      notInFinally: '{{What}} from `{{acquire}}` is not released if line {{line}} throws: {{cost}}. Release it in `finally`.',
      earlyExit: '{{What}} from `{{acquire}}` is never released on the `{{exit}}` at line {{line}}: {{cost}}. Release it in `finally`.',
      callbackExit:
        '{{What}} from `{{acquire}}` is never released on the `{{exit}}` at line {{line}}, in the callback that should release it: {{cost}}. Release it before the callback can leave.',
      neverReleased: '{{What}} from `{{acquire}}` is never released in this function: {{cost}}. Release it in `finally`.',
      releasedOnlyInCatch:
        '{{What}} from `{{acquire}}` is released only in the `catch` at line {{line}}, so a run that succeeds keeps it: {{cost}}. Release it in `finally`.',
      unreleasedPath:
        '{{What}} from `{{acquire}}` is not released on every path through line {{line}}: {{cost}}. Release it in `finally`.',
      throwBeforeTry:
        '{{What}} from `{{acquire}}` is not released if line {{line}} throws, before the `try` at line {{tryLine}} begins: {{cost}}. Acquire right before the `try`.',
      returnWithoutAwait:
        'The `return` at line {{line}} hands back a promise without `await`, so `finally` releases {{what}} from `{{acquire}}` before that work finishes and the next holder runs alongside it. Return `await …`.',
      throwBeforeHandOver:
        '{{What}} from `{{acquire}}` is lost if line {{line}} throws before it is handed on at line {{handLine}}: {{cost}}. Release it in a `catch` that rethrows.',
      // A `finally` cannot choose between commit and rollback, so the advice differs.
      transactionNotEnded:
        '{{What}} from `{{acquire}}` {{path}}: {{cost}}. End it on every path: commit at the end of the `try` and roll back in a `catch` that rethrows.',
      connectionNotClosed: '{{What}} from `{{acquire}}` {{path}}: {{cost}}. Close it in `finally`.',
      leftToLaterMiddleware:
        '{{What}} from `{{acquire}}` is stored on `{{target}}` for a later middleware to release, which Express runs only if every handler before it calls `next()`: a route that answers, or an error past the error handler, keeps it: {{cost}}. Release it when the response ends (`{{response}}.on(\'close\', …)`).',
      wrapInTryFinally: 'Wrap the code that holds it in `try` and release it in `finally`.',
      useRunExclusive: 'Use `{{owner}}.runExclusive()`, which releases however the callback ends.',
      moveIntoTry: 'Move the code between the acquire and the `try` into the `try`.',
      addAwait: 'Return `await …` so the release waits for the work.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          resources: {
            type: 'array',
            description: 'Extra acquire/release method pairs, added to `settings["async-hazards"].resources`.',
            items: {
              type: 'object',
              properties: {
                acquire: { type: 'string', description: 'Method that acquires (`lockAsync`).' },
                release: { type: 'string', description: 'Method that releases (`unlock`), on the same object or on the result.' },
                module: { type: 'string', description: 'Only objects constructed from this module.' },
              },
              required: ['acquire', 'release'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    ],
  },
  defaultOptions: [{ resources: [] }],
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    const resources = [...getSharedSettings(context).resources, ...(options.resources ?? [])];
    const services = getOptionalParserServices(context);
    const checker = services.program ? { program: services.program, esTreeNodeToTSNodeMap: services.esTreeNodeToTSNodeMap } : null;
    const strict = isStrict(context);
    let oneShot: boolean | null = null;
    /**
     * A one-shot script (a CLI command, a migration) whose failure ends the run takes what it
     * leaked with it: nobody else waits on its pool. A batch that catches per item and goes on
     * acquires again, and runs the pool dry; `strict` reports every one-shot leak. Leaks that
     * need no failure (a path that never releases, an early `return`) are reported anywhere.
     */
    const leakOutlivesFailure = (acquisition: Acquisition, problem: ReleaseProblem): boolean => {
      if (strict || !FAILURE_LEAKS.has(problem.kind)) return true;
      oneShot ??= processRole(context).role === 'one-shot';
      return !oneShot || runsAgainAfterFailure(sourceCode, acquisition.acquireCall);
    };

    /** Where the leak happens, as the role and phase at the acquire say (see `LeakContext`). */
    function leakContext(acquisition: Acquisition, problem: ReleaseProblem): LeakContext {
      const role = processRole(context, acquisition.acquireCall);
      if (role.role === 'one-shot') {
        return FAILURE_LEAKS.has(problem.kind) && !runsAgainAfterFailure(sourceCode, acquisition.acquireCall) ? 'oneShotEnds' : 'oneShotGoesOn';
      }
      return role.phase === 'startup' ? 'startup' : 'serving';
    }

    /** `more`: further releases the same failure skips (one per promise handler), for evidence. */
    function report(acquisition: Acquisition, problem: ReleaseProblem, more: readonly { thrower: TSESTree.Node; release: ReleaseSite }[] = []): void {
      const named = acquisition.resourceNode && acquisition.resultRole === 'resource';
      // `x.release(r)` seen in use is a pool's shape and a distributed lock's alike: say neither.
      const generic = acquisition.recognizedBy === 'setting' || (acquisition.recognizedBy === 'usage' && acquisition.kind === 'pooledResource');
      const noun = generic ? 'the resource' : NOUN[acquisition.kind];
      const what = named ? `\`${acquisition.resourceNode?.name ?? ''}\`` : noun;
      const data: Record<string, string> = {
        what,
        What: what.charAt(0).toUpperCase() + what.slice(1),
        acquire: acquisition.acquireText,
        cost: leakCost(generic ? 'generic' : acquisition.kind, leakContext(acquisition, problem)),
      };
      const evidence: EvidenceLocation[] = [evidenceAt(acquisition.acquireCall, 'acquired here')];
      const suggest: TSESLint.ReportSuggestionArray<MessageId> = [];
      let fix: TSESLint.ReportFixFunction | null = null;
      // Released in the resource's own callbacks: a `finally` here would release before they run.
      const inCallback = acquisition.releaseCalls.some((site) => site.inNestedFunction);
      const messageId: MessageId = problem.kind === 'earlyExit' && inCallback ? 'callbackExit' : problem.kind;
      const wrap = (): void => {
        // A `finally` cannot tell a commit from a rollback: that rewrite is the author's to write.
        if (inCallback || acquisition.kind === 'transaction') return;
        const plan = planWrapInTryFinally(sourceCode, acquisition, problem.kind === 'neverReleased' ? synthesizedRelease(acquisition) : null);
        // Closing a connection that failed can reject (mysql2's `end()` on a dead one) and replace
        // the first error: that change on the failure path is offered, not applied.
        if (plan?.safe && problem.kind === 'notInFinally' && acquisition.kind !== 'connection') fix = plan.fix;
        else if (plan) suggest.push({ messageId: 'wrapInTryFinally', fix: plan.fix });
        const exclusive = planRunExclusive(sourceCode, acquisition);
        if (exclusive && acquisition.owner) {
          suggest.push({ messageId: 'useRunExclusive', data: { owner: sourceCode.getText(acquisition.owner) }, fix: exclusive });
        }
      };
      switch (problem.kind) {
        case 'notInFinally':
          data['line'] = String(problem.thrower.loc.start.line);
          evidence.push(evidenceAt(problem.thrower, 'can throw here'), evidenceAt(problem.release.call, 'released here, skipped on a throw'));
          for (const skipped of more) evidence.push(evidenceAt(skipped.thrower, 'can throw here'), evidenceAt(skipped.release.call, 'released here, skipped on a throw'));
          wrap();
          break;
        case 'earlyExit':
          data['line'] = String(problem.exit.loc.start.line);
          data['exit'] = exitKeyword(problem.exit);
          evidence.push(evidenceAt(problem.exit, 'leaves without releasing'));
          wrap();
          break;
        case 'neverReleased':
          wrap();
          break;
        case 'releasedOnlyInCatch':
          data['line'] = String(problem.release.call.loc.start.line);
          evidence.push(evidenceAt(problem.release.call, 'released only here'));
          wrap();
          break;
        case 'unreleasedPath':
          data['line'] = String(problem.at.loc.start.line);
          evidence.push(evidenceAt(problem.at, 'a path through here keeps it'));
          wrap();
          break;
        case 'throwBeforeTry': {
          data['line'] = String(problem.thrower.loc.start.line);
          data['tryLine'] = String(problem.guard.loc.start.line);
          evidence.push(evidenceAt(problem.thrower, 'can throw before the try'), evidenceAt(problem.guard, 'the try that releases'));
          const move = planMoveIntoTry(sourceCode, acquisition, problem.guard);
          if (move) suggest.push({ messageId: 'moveIntoTry', fix: move });
          break;
        }
        case 'throwBeforeHandOver':
          data['line'] = String(problem.thrower.loc.start.line);
          data['handLine'] = String(problem.handOver.loc.start.line);
          evidence.push(evidenceAt(problem.thrower, 'can throw before the hand-over'), evidenceAt(problem.handOver, 'handed on here'));
          break;
        case 'returnWithoutAwait': {
          data['line'] = String(problem.returnStatement.loc.start.line);
          evidence.push(evidenceAt(problem.returnStatement, 'returns before the work settles'));
          const fn = acquisition.function;
          const argument = problem.argument;
          if (fn?.async) suggest.push({ messageId: 'addAwait', fix: (fixer) => fixer.insertTextBefore(argument, 'await ') });
          break;
        }
      }
      const ended = acquisition.kind === 'transaction' || acquisition.kind === 'connection' ? acquisition.kind : null;
      const path = ended ? unendedPath(ended, problem, data['line'] ?? '') : null;
      const reported: MessageId = path === null ? messageId : ended === 'connection' ? 'connectionNotClosed' : 'transactionNotEnded';
      if (path !== null) data['path'] = path;
      recordEvidence(context, acquisition.acquireCall, reported, evidence);
      context.report({ node: acquisition.acquireCall, messageId: reported, data, fix, suggest });
    }

    function reportRequestHold(acquisition: Acquisition, hold: RequestHold): void {
      const generic = acquisition.recognizedBy === 'setting' || (acquisition.recognizedBy === 'usage' && acquisition.kind === 'pooledResource');
      const what = generic ? 'the resource' : NOUN[acquisition.kind];
      const response = hold.handler.params[1];
      const data = {
        What: what.charAt(0).toUpperCase() + what.slice(1),
        acquire: acquisition.acquireText,
        target: sourceCode.getText(hold.target),
        response: response?.type === AST_NODE_TYPES.Identifier ? response.name : 'res',
        cost: leakCost(generic ? 'generic' : acquisition.kind, 'serving'),
      };
      const evidence = [evidenceAt(acquisition.acquireCall, 'acquired here'), evidenceAt(hold.store, 'left on the request here')];
      if (hold.laterRelease) evidence.push(evidenceAt(hold.laterRelease, 'released only here, if this middleware runs'));
      recordEvidence(context, acquisition.acquireCall, 'leftToLaterMiddleware', evidence);
      context.report({ node: acquisition.acquireCall, messageId: 'leftToLaterMiddleware', data });
    }

    return {
      'Program:exit'() {
        const acquisitions = findManualAcquisitions(sourceCode, { resources, services });
        const waits = new Set(acquisitions.filter((a) => waitsUntilGranted(sourceCode, a)).map((a) => a.acquireExpression));
        for (const acquisition of acquisitions) {
          const hold = requestHold(sourceCode, context.filename, acquisition);
          if (hold) {
            reportRequestHold(acquisition, hold);
            continue;
          }
          const chained = chainedLeak(sourceCode, acquisition);
          if (chained) {
            const problem: ReleaseProblem = { kind: 'notInFinally', thrower: chained.thrower, release: chained.release };
            if (leakOutlivesFailure(acquisition, problem)) {
              report({ ...acquisition, releaseCalls: chained.skipped.map((s) => s.release) }, problem, chained.skipped.slice(1));
            }
            continue;
          }
          const problem = checkReleasePaths(acquisition, {
            isPromise: (expr) => handsBackPromise(sourceCode, checker, acquisition, expr),
            sourceCode,
            waitsWithoutFailing: (node) => waits.has(node as TSESTree.Expression),
          });
          if (!problem || !leakOutlivesFailure(acquisition, problem)) continue;
          // A connection of its own leaked at startup, or behind an access check, leaks once per start or per trusted retry.
          if (!strict && leaksOnlyRarely(sourceCode, acquisition)) continue;
          // A gap of synchronous calls into code out of sight (a timer, a listener) is `strict`'s.
          if (problem.kind === 'throwBeforeTry' && problem.unseenOnly && !strict) continue;
          // `getConnection(conn)` whose every caller hands in `conn`: the helper takes nothing here.
          if (!borrowsAtEveryCall(sourceCode, acquisition.acquireCall)) report(acquisition, problem);
        }
      },
    };
  },
});
