/**
 * Is a manual acquisition released on every path? `checkReleasePaths` walks the statements after
 * the acquire, structurally (no full control-flow graph): it follows `if`, loops, `switch`, labels
 * and `try`, and climbs out of the blocks around the acquire up to the function body. It returns
 * the first problem on a path, or null when the release is guaranteed (or the resource is not this
 * function's to release).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { contains, findVariable, isFunctionNode, isNullOrUndefined, skipTransparent } from './ast';
import { leakBeforeHandOver } from './handOver';
import type { Acquisition, ReleaseSite } from './locks';
import { releaseCoverStatement } from './locks';
import { cannotBeNullish } from './knownValues';
import { cannotThrow } from './rejections';
import { exitsOnlyAfterShutdown } from './shutdownGuards';
import { isUnseenCall } from './unseenCalls';

export type ExitStatement =
  | TSESTree.ReturnStatement
  | TSESTree.ThrowStatement
  | TSESTree.BreakStatement
  | TSESTree.ContinueStatement;

export type ReleaseProblem =
  /** No release anywhere in the function and the resource does not escape. */
  | { kind: 'neverReleased' }
  /** Releases exist, but `thrower` can throw while held and nothing releases on that path. */
  | { kind: 'notInFinally'; thrower: TSESTree.Node; release: ReleaseSite }
  /** An exit leaves the function (or the region) while the resource is held. */
  | { kind: 'earlyExit'; exit: ExitStatement }
  /** Every release sits in a `catch`: the normal path never releases. */
  | { kind: 'releasedOnlyInCatch'; release: ReleaseSite }
  /** Some path (an `if` without a release in one branch, a loop run zero times) reaches the end held. */
  | { kind: 'unreleasedPath'; at: TSESTree.Node; release: ReleaseSite }
  /**
   * `thrower` runs after the acquire and before the `try` whose `finally` releases. `unseenOnly`:
   * nothing in that gap awaits, throws or constructs, and every call in it that may throw is one
   * whose body is out of sight (see `isUnseenCall`).
   */
  | { kind: 'throwBeforeTry'; thrower: TSESTree.Node; guard: TSESTree.TryStatement; unseenOnly: boolean }
  /** `return promise` without `await` inside the guarded `try`: `finally` releases before the work settles. */
  | { kind: 'returnWithoutAwait'; returnStatement: TSESTree.ReturnStatement; argument: TSESTree.Expression; guard: TSESTree.TryStatement }
  /** The resource is handed on (returned, stored, given to a listener), but `thrower` can leave first. */
  | { kind: 'throwBeforeHandOver'; thrower: TSESTree.Node; handOver: TSESTree.Node };

export interface ReleasePathOptions {
  /** Does `expr` (a returned expression) evaluate to a promise? Used for the un-awaited `return` check. */
  isPromise?: (expr: TSESTree.Expression) => boolean;
  /**
   * The file, so that code proved unable to throw (`cache.set(key, value)` on a `Map` the file
   * creates, a property read on a value that cannot be nullish) does not count as a thrower.
   */
  sourceCode?: Readonly<TSESLint.SourceCode>;
  /**
   * Is `node` (an awaited expression) the acquire of another lock or permit, which waits until it
   * is granted rather than failing? `await a.acquire(); await b.acquire(); try { … } finally { … }`
   * takes locks in order: the second wait is not a throw that leaks the first.
   */
  waitsWithoutFailing?: (node: TSESTree.Node) => boolean;
}

/** Escapes that hand the resource to someone else: the function no longer owns it. */
const OWNER_CHANGES = new Set(['returned', 'stored', 'collected', 'aliased']);
/**
 * Escapes that only lend a reference: stored in an object or a collection while the function
 * still releases the resource in its own `finally` (`reqCon.client = client; … finally {
 * client.release() }`), it remains this function's to release, and what runs before that `try`
 * can still leak it.
 */
const LENT_REFERENCES = new Set(['stored', 'collected']);

export function checkReleasePaths(acquisition: Acquisition, options: ReleasePathOptions = {}): ReleaseProblem | null {
  const { escape, releaseCalls } = acquisition;
  // Handed on: the new holder releases, once it has it.
  const handedOn = (): ReleaseProblem | null => {
    const leak = options.sourceCode ? leakBeforeHandOver(acquisition, { ...options, sourceCode: options.sourceCode }) : null;
    return leak ? { kind: 'throwBeforeHandOver', ...leak } : null;
  };
  const releasesInOwnFinally = releaseCalls.some((site) => site.finallyOf && !site.inNestedFunction);
  const lent = escape !== null && LENT_REFERENCES.has(escape.kind) && releasesInOwnFinally;
  if (escape && OWNER_CHANGES.has(escape.kind) && !lent) return handedOn();
  // A release in a callback is someone else's to time, unless the callback is the resource's own
  // continuation: `conn.query(sql, (err, rows) => { …; conn.release(); })`.
  if (releaseCalls.some((site) => site.inNestedFunction && !inContinuation(acquisition, site.call))) return handedOn();
  // `const p = mutex.acquire()` keeps a promise; what happens to it is beyond this check.
  if (acquisition.acquireExpression.type !== AST_NODE_TYPES.AwaitExpression && acquisition.resourceNode && !acquisition.synchronous) return null;
  if (releaseCalls.length === 0) {
    // `await this.mutex.acquire()` with the release in another method (`end()`) is a deliberate
    // hand-over; only a bound release function or resource is known to die with this function,
    // or a client whose only handle is dropped where it is taken (`await pool.connect();`).
    if (escape) return handedOn();
    return !acquisition.resourceNode && !acquisition.resultDropped ? null : { kind: 'neverReleased' };
  }

  const walker = new Walker(acquisition, options);
  const guarded = walker.guardedByFinally();
  if (guarded !== undefined) return guarded;
  return walker.walkFromAcquire();
}

// ---------------------------------------------------------------------------------------------

class Walker {
  private readonly releases: Set<TSESTree.Node>;
  private readonly region: Set<TSESTree.Node> = new Set();
  private caught = 0;
  private caughtThrower: TSESTree.Node | null = null;
  private problem: ReleaseProblem | null = null;
  private heldReason: TSESTree.Node | null = null;

  constructor(
    private readonly acquisition: Acquisition,
    private readonly options: ReleasePathOptions,
  ) {
    this.releases = new Set(acquisition.releaseCalls.map((s) => s.call));
  }

  /** The guarded shapes; undefined when the acquisition is not guarded by a `finally` release. */
  guardedByFinally(): ReleaseProblem | null | undefined {
    const { acquireCall, acquireStatement, releaseCalls } = this.acquisition;
    for (const site of releaseCalls) {
      const guard = site.finallyOf;
      if (!guard) continue;
      // `let release; try { release = await m.acquire(); … } finally { release?.() }`
      if (contains(guard.block, acquireCall)) return this.unawaitedReturn(guard, acquireCall.range[1]);
    }
    const list = statementList(acquireStatement);
    const index = list.indexOf(acquireStatement);
    for (let i = index + 1; i < list.length; i++) {
      const statement = list[i] as TSESTree.Statement;
      if (statement.type !== AST_NODE_TYPES.TryStatement || !this.finallyReleases(statement)) continue;
      const gap: TSESTree.Node[] = [];
      for (let j = index + 1; j < i; j++) {
        const between = this.heldPart(list[j] as TSESTree.Statement);
        if (!between) continue;
        const exit = firstExit(between);
        if (exit) return { kind: 'earlyExit', exit };
        if (between.type === AST_NODE_TYPES.ExpressionStatement && this.options.waitsWithoutFailing?.(between.expression)) continue;
        gap.push(between);
      }
      for (const between of gap) {
        const thrower = this.firstThrower(between);
        if (thrower) return { kind: 'throwBeforeTry', thrower, guard: statement, unseenOnly: this.unseenOnly(gap) };
      }
      return this.unawaitedReturn(statement, statement.range[0]);
    }
    return undefined;
  }

  /**
   * The part of a statement between the acquire and the guarding `try` that runs while held:
   * `if (!client) { return null }` without an `else` holds nothing, its `else` is what runs held.
   */
  private heldPart(statement: TSESTree.Statement): TSESTree.Node | null {
    if (statement.type !== AST_NODE_TYPES.IfStatement) return statement;
    const absent = this.unheldBranch(statement.test);
    if (absent === 'consequent') return statement.alternate;
    if (absent === 'alternate') return statement.consequent;
    return statement;
  }

  /**
   * The branch of an `if` on `test` that holds nothing anyone waits on: taken only when the
   * acquire gave nothing back (`absentBranch`), or only once the owner has been shut down by code
   * that releases it itself (`exitsOnlyAfterShutdown`).
   */
  private unheldBranch(test: TSESTree.Expression): 'consequent' | 'alternate' | null {
    const absent = absentBranch(this.acquisition, test);
    if (absent) return absent;
    const sourceCode = this.options.sourceCode;
    return sourceCode && exitsOnlyAfterShutdown(sourceCode, this.acquisition, test) ? 'consequent' : null;
  }

  walkFromAcquire(): ReleaseProblem | null {
    const { acquireStatement, scope } = this.acquisition;
    let node: TSESTree.Node = acquireStatement;
    // Throws inside an enclosing `try … catch` go to its handler, not out of the function.
    for (let p: TSESTree.Node | undefined = node.parent; p && p !== scope; p = p.parent) {
      if (p.type === AST_NODE_TYPES.BlockStatement && p.parent?.type === AST_NODE_TYPES.TryStatement && p.parent.block === p && p.parent.handler) {
        this.caught++;
      }
    }
    let held = true;
    for (;;) {
      const list = statementList(node);
      held = this.walkList(list.slice(list.indexOf(node as TSESTree.Statement) + 1), held);
      if (this.problem) return this.problem;
      const container: TSESTree.Node | undefined = node.parent;
      if (!container || container === scope || container.type === AST_NODE_TYPES.Program) break;
      const owner: TSESTree.Node | undefined = container.parent;
      if (!owner || isFunctionNode(owner)) break;
      if (owner.type === AST_NODE_TYPES.TryStatement && owner.block === container) {
        if (owner.handler) {
          this.caught--;
          if (this.caughtThrower && !this.problem) held = this.afterHandler(owner.handler, this.caughtThrower, held);
        }
        if (owner.finalizer && held && !this.problem) held = this.walkList(owner.finalizer.body, held);
      } else if (owner.type === AST_NODE_TYPES.CatchClause) {
        const tryStatement = owner.parent as TSESTree.TryStatement;
        if (tryStatement.finalizer && held) held = this.walkList(tryStatement.finalizer.body, held);
        node = tryStatement;
        if (this.problem) return this.problem;
        continue;
      }
      if (this.problem) return this.problem;
      node = isListOwner(owner) ? container : nearestStatement(owner);
    }
    if (this.problem) return this.problem;
    if (!held) return null;
    return this.endProblem();
  }

  private endProblem(): ReleaseProblem | null {
    const sites = this.acquisition.releaseCalls;
    const first = sites[0] as ReleaseSite;
    if (sites.every((s) => s.catchClause)) return { kind: 'releasedOnlyInCatch', release: first };
    const thrower = this.skippedBy ?? this.caughtThrower;
    if (thrower) return { kind: 'notInFinally', thrower, release: first };
    return { kind: 'unreleasedPath', at: this.heldReason ?? this.acquisition.acquireStatement, release: first };
  }

  private walkList(statements: readonly TSESTree.Node[], held: boolean): boolean {
    let state = held;
    for (const statement of statements) {
      if (!state || this.problem) return state;
      state = this.walkStatement(statement);
    }
    return state;
  }

  /** Walks one statement entered while held; returns whether it may still be held after it. */
  private walkStatement(statement: TSESTree.Node): boolean {
    if (this.releasesIn(statement)) return false;
    const continuation = this.continuationIn(statement);
    if (continuation) return this.walkContinuation(continuation);
    switch (statement.type) {
      case AST_NODE_TYPES.ReturnStatement:
      case AST_NODE_TYPES.BreakStatement:
      case AST_NODE_TYPES.ContinueStatement:
        if (statement.type !== AST_NODE_TYPES.ReturnStatement && this.jumpStaysInRegion(statement)) return true;
        this.problem = { kind: 'earlyExit', exit: statement };
        return true;
      case AST_NODE_TYPES.ThrowStatement:
        if (this.caught > 0) return this.noteThrower(statement);
        this.problem = { kind: 'earlyExit', exit: statement };
        return true;
      case AST_NODE_TYPES.BlockStatement:
        return this.walkList(statement.body, true);
      case AST_NODE_TYPES.IfStatement: {
        this.checkThrow(statement.test);
        // `if (!client) return null`: a branch taken only when nothing was acquired holds nothing.
        const absent = this.unheldBranch(statement.test);
        const consequent = absent === 'consequent' ? false : this.walkStatement(statement.consequent);
        const alternate = absent === 'alternate' ? false : statement.alternate ? this.walkStatement(statement.alternate) : true;
        return this.merge(statement, consequent, alternate);
      }
      case AST_NODE_TYPES.TryStatement:
        return this.walkTry(statement);
      case AST_NODE_TYPES.LabeledStatement:
        this.region.add(statement);
        return this.walkStatement(statement.body);
      case AST_NODE_TYPES.ForStatement:
      case AST_NODE_TYPES.ForInStatement:
      case AST_NODE_TYPES.ForOfStatement:
      case AST_NODE_TYPES.WhileStatement:
      case AST_NODE_TYPES.DoWhileStatement: {
        this.region.add(statement);
        const head = statement.type === AST_NODE_TYPES.ForStatement ? [statement.init, statement.test, statement.update]
          : statement.type === AST_NODE_TYPES.ForInStatement || statement.type === AST_NODE_TYPES.ForOfStatement ? [statement.right]
            : [statement.test];
        for (const part of head) if (part) this.checkThrow(part);
        if (statement.type === AST_NODE_TYPES.ForOfStatement && statement.await) this.noteThrower(statement);
        const body = this.walkStatement(statement.body);
        // The body may run zero times, so a release inside a loop does not cover the code after it.
        return this.merge(statement, body, statement.type !== AST_NODE_TYPES.DoWhileStatement || body);
      }
      case AST_NODE_TYPES.SwitchStatement: {
        this.region.add(statement);
        this.checkThrow(statement.discriminant);
        let anyHeld = !statement.cases.some((c) => c.test === null);
        for (const switchCase of statement.cases) {
          if (this.walkList(switchCase.consequent, true)) anyHeld = true;
        }
        return this.merge(statement, anyHeld, anyHeld);
      }
      case AST_NODE_TYPES.FunctionDeclaration:
      case AST_NODE_TYPES.EmptyStatement:
      case AST_NODE_TYPES.TSTypeAliasDeclaration:
      case AST_NODE_TYPES.TSInterfaceDeclaration:
        return true;
      default:
        this.checkThrow(statement);
        return true;
    }
  }

  private walkTry(statement: TSESTree.TryStatement): boolean {
    if (this.finallyReleases(statement)) {
      const problem = this.unawaitedReturn(statement, statement.range[0]);
      if (problem) this.problem = problem;
      return false;
    }
    let held: boolean;
    if (statement.handler) {
      this.caught++;
      const throwerBefore = this.caughtThrower;
      this.caughtThrower = null;
      held = this.walkStatement(statement.block);
      this.caught--;
      const thrower = this.caughtThrower;
      this.caughtThrower = throwerBefore ?? this.caughtThrower;
      if (thrower && !this.problem) held = this.afterHandler(statement.handler, thrower, held);
    } else {
      held = this.walkStatement(statement.block);
    }
    if (statement.finalizer && held && !this.problem) held = this.walkList(statement.finalizer.body, true);
    return held;
  }

  /**
   * Walks the `catch` a thrower in the `try` block leads to; whether it is held after the `try`.
   * When the block released and the `catch` does not, the resource is held afterwards only
   * because that thrower threw: it is the one a later leak names (`skippedBy`).
   */
  private afterHandler(handler: TSESTree.CatchClause, thrower: TSESTree.Node, heldAfterBlock: boolean): boolean {
    const heldAfterCatch = this.walkHandler(handler, true);
    if (heldAfterCatch && !heldAfterBlock) this.skippedBy ??= thrower;
    return heldAfterCatch || heldAfterBlock;
  }

  /** The thrower whose `catch` kept the resource while the normal path released it. */
  private skippedBy: TSESTree.Node | null = null;

  /** A `catch` entered while held: its calls are treated as handling, only an explicit `throw` leaves. */
  private walkHandler(handler: TSESTree.CatchClause, held: boolean): boolean {
    if (!held) return false;
    const saved = this.caught;
    this.caught = 0;
    const quiet = this.inHandler;
    const pending = this.handlerThrower;
    this.inHandler = true;
    this.handlerThrower = null;
    const after = this.walkList(handler.body.body, true);
    // Released in the `catch`, but only after a call of the resource's own that can fail.
    if (!after && !this.problem && this.handlerThrower) {
      this.problem = { kind: 'notInFinally', thrower: this.handlerThrower, release: this.acquisition.releaseCalls[0] as ReleaseSite };
    }
    this.handlerThrower = pending;
    this.inHandler = quiet;
    this.caught = saved;
    return after;
  }

  private inHandler = false;
  /** The first `await` of the resource's own call in the `catch` being walked (see `awaitsResource`). */
  private handlerThrower: TSESTree.Node | null = null;

  /**
   * `conn.query(sql, (err, rows) => { … })` as a statement, where the callback holds a release:
   * the resource goes with the callback, which runs later, outside every `try` here.
   */
  private continuationIn(statement: TSESTree.Node): FunctionNode | null {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) return null;
    const call = skipTransparent(statement.expression);
    if (call.type !== AST_NODE_TYPES.CallExpression) return null;
    const callback = call.arguments[call.arguments.length - 1];
    if (!isFunctionNode(callback) || !isContinuationCall(this.acquisition, callback)) return null;
    return this.acquisition.releaseCalls.some((site) => contains(callback, site.call)) ? callback : null;
  }

  /** Walks a continuation's body as the rest of the held region; the code after the call no longer holds it. */
  private walkContinuation(callback: FunctionNode): boolean {
    const body = callback.body;
    if (body.type !== AST_NODE_TYPES.BlockStatement) return false;
    const saved = { caught: this.caught, caughtThrower: this.caughtThrower, inHandler: this.inHandler };
    this.caught = 0;
    this.caughtThrower = null;
    this.inHandler = false;
    const held = this.walkList(body.body, true);
    if (held && !this.problem) {
      this.problem = { kind: 'unreleasedPath', at: this.heldReason ?? callback, release: this.acquisition.releaseCalls[0] as ReleaseSite };
    }
    this.caught = saved.caught;
    this.caughtThrower = saved.caughtThrower;
    this.inHandler = saved.inHandler;
    return false;
  }

  private merge(at: TSESTree.Node, a: boolean, b: boolean): boolean {
    if (a !== b && !this.heldReason) this.heldReason = at;
    return a || b;
  }

  private checkThrow(node: TSESTree.Node): void {
    const thrower = this.firstThrower(node);
    if (thrower) this.noteThrower(thrower);
  }

  private noteThrower(thrower: TSESTree.Node): boolean {
    if (this.inHandler && thrower.type !== AST_NODE_TYPES.ThrowStatement) {
      if (this.awaitsResource(thrower)) this.handlerThrower ??= thrower;
      return true;
    }
    if (this.caught > 0) {
      this.caughtThrower ??= thrower;
      return true;
    }
    const first = this.acquisition.releaseCalls[0] as ReleaseSite;
    this.problem = { kind: 'notInFinally', thrower: this.skippedBy ?? thrower, release: first };
    return true;
  }

  /**
   * `await conn.rollback()` in a `catch` before `conn.release()`: the resource's own call fails
   * most often for the reason that brought the code here (a lost connection), and then the
   * release after it is skipped. Other calls in a `catch` (logging) still count as handling.
   */
  private awaitsResource(thrower: TSESTree.Node): boolean {
    const variable = this.acquisition.resourceVariable;
    if (!variable || thrower.type !== AST_NODE_TYPES.AwaitExpression) return false;
    const call = skipTransparent(thrower.argument);
    if (call.type !== AST_NODE_TYPES.CallExpression) return false;
    const callee = skipTransparent(call.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
    const object = skipTransparent(callee.object);
    return object.type === AST_NODE_TYPES.Identifier && variable.references.some((r) => r.identifier === object);
  }

  private releasesIn(statement: TSESTree.Node): boolean {
    return this.acquisition.releaseCalls.some(
      (site) => !site.finallyOf && contains(statement, site.call) && releaseCoverStatement(site, this.acquisition.scope) === statement,
    );
  }

  /**
   * The `finally` of `statement` releases on every path: the release is in it, or in a `finally`
   * nested in it (`finally { off(); try { await c.query('UNLISTEN') } finally { c.release() } }`).
   */
  private finallyReleases(statement: TSESTree.TryStatement): boolean {
    const { releaseCalls, scope } = this.acquisition;
    return releaseCalls.some((site) => site.finallyOf === statement ||
      (!site.inNestedFunction && statement.finalizer !== null && contains(statement.finalizer, site.call) &&
        releaseCoverStatement(site, scope) === statement));
  }

  private jumpStaysInRegion(statement: TSESTree.BreakStatement | TSESTree.ContinueStatement): boolean {
    if (statement.label) {
      return [...this.region].some((n) => n.type === AST_NODE_TYPES.LabeledStatement && n.label.name === statement.label?.name);
    }
    for (let p: TSESTree.Node | undefined = statement.parent; p; p = p.parent) {
      if (this.region.has(p)) return p.type !== AST_NODE_TYPES.SwitchStatement || statement.type === AST_NODE_TYPES.BreakStatement;
      if (isFunctionNode(p)) return false;
    }
    return false;
  }

  /**
   * The first sub-expression of `node` that may throw (a call, `new`, `await`, `throw`), not
   * entering functions. Calls `cannotThrow` proves safe, and the releases themselves, do not count.
   */
  firstThrower(node: TSESTree.Node): TSESTree.Node | null {
    let found: TSESTree.Node | null = null;
    const visit = (n: TSESTree.Node): void => {
      if (found || isFunctionNode(n) || n.type === AST_NODE_TYPES.ClassBody) return;
      const point = this.throwPoint(n);
      if (point === 'throws' || point === 'call') {
        found = n;
        return;
      }
      if (point === 'safe') return;
      for (const child of children(n)) visit(child);
    };
    visit(node);
    return found;
  }

  /**
   * What `n` itself is for the thrower search: a `throw`, `await`, `new`, `yield`, tagged template
   * or a read of a maybe-missing value (`throws`), a call that may throw (`call`), a call proved
   * safe or a release (`safe`: nothing under it counts either), or none of these (null).
   */
  private throwPoint(n: TSESTree.Node): 'throws' | 'call' | 'safe' | null {
    const sourceCode = this.options.sourceCode;
    if (n.type === AST_NODE_TYPES.ThrowStatement || n.type === AST_NODE_TYPES.AwaitExpression || n.type === AST_NODE_TYPES.NewExpression ||
      n.type === AST_NODE_TYPES.YieldExpression || n.type === AST_NODE_TYPES.TaggedTemplateExpression) {
      return 'throws';
    }
    if (n.type === AST_NODE_TYPES.CallExpression) {
      if (this.releases.has(n)) return 'safe';
      if (!cannotThrow(n, sourceCode)) return 'call';
      // `cache.get(key).size`: the call cannot throw, but what it returns may be undefined.
      return sourceCode && usedAsObject(n) && !cannotBeNullish(n, sourceCode) ? 'throws' : 'safe';
    }
    // `const entry = cache.get(key); entry.count`: the same read, one name later.
    if (sourceCode && n.type === AST_NODE_TYPES.MemberExpression && !n.optional && n.object.type === AST_NODE_TYPES.Identifier &&
      holdsTrustedNullable(sourceCode, n.object)) {
      return 'throws';
    }
    return null;
  }

  /** Every possible thrower in `nodes`, calls' own arguments included, is a call whose body is out of sight. */
  private unseenOnly(nodes: readonly TSESTree.Node[]): boolean {
    const sourceCode = this.options.sourceCode;
    if (!sourceCode) return false;
    let seen = false;
    const visit = (n: TSESTree.Node): void => {
      if (seen || isFunctionNode(n) || n.type === AST_NODE_TYPES.ClassBody) return;
      const point = this.throwPoint(n);
      if (point === 'throws' || (point === 'call' && !isUnseenCall(sourceCode, n as TSESTree.CallExpression))) {
        seen = true;
        return;
      }
      if (point === 'safe') return;
      // An unseen call's receiver and arguments are evaluated here, in sight.
      for (const child of children(n)) visit(child);
    };
    for (const node of nodes) visit(node);
    return !seen;
  }

  /** `return work()` without `await` inside the guarded `try`, after `from`. */
  private unawaitedReturn(guard: TSESTree.TryStatement, from: number): ReleaseProblem | null {
    const isPromise = this.options.isPromise;
    if (!isPromise) return null;
    let problem: ReleaseProblem | null = null;
    const visit = (n: TSESTree.Node): void => {
      if (problem || isFunctionNode(n)) return;
      if (n.type === AST_NODE_TYPES.ReturnStatement && n.argument && n.range[0] >= from) {
        const argument = skipTransparent(n.argument) as TSESTree.Expression;
        if (argument.type !== AST_NODE_TYPES.AwaitExpression && isPromise(argument)) {
          problem = { kind: 'returnWithoutAwait', returnStatement: n, argument: n.argument, guard };
          return;
        }
      }
      for (const child of children(n)) visit(child);
    };
    visit(guard.block);
    return problem;
  }
}

/**
 * Which branch of an `if` on `test` runs only when the acquire gave nothing back: `!client`,
 * `client == null`, `client === undefined` (and `&&` with one of them) rule the consequent out;
 * `client`, `client != null` rule the alternate out. Null when both may run holding it.
 */
export function absentBranch(acquisition: Acquisition, test: TSESTree.Expression): 'consequent' | 'alternate' | null {
  const variable = acquisition.resourceVariable;
  if (!variable) return null;
  const isResource = (node: TSESTree.Node): boolean => {
    const expr = skipTransparent(node);
    return expr.type === AST_NODE_TYPES.Identifier && variable.references.some((r) => r.identifier === expr);
  };
  const expr = skipTransparent(test);
  if (isResource(expr)) return 'alternate';
  if (expr.type === AST_NODE_TYPES.UnaryExpression && expr.operator === '!' && isResource(expr.argument)) return 'consequent';
  if (expr.type === AST_NODE_TYPES.BinaryExpression) {
    const compared = (isResource(expr.left) && isNullOrUndefined(expr.right)) || (isResource(expr.right) && isNullOrUndefined(expr.left));
    if (!compared) return null;
    if (expr.operator === '==' || expr.operator === '===') return 'consequent';
    if (expr.operator === '!=' || expr.operator === '!==') return 'alternate';
    return null;
  }
  // `!client && retries > 3`: the consequent still needs the client missing.
  if (expr.type === AST_NODE_TYPES.LogicalExpression && expr.operator === '&&' &&
    (absentBranch(acquisition, expr.left) === 'consequent' || absentBranch(acquisition, expr.right) === 'consequent')) {
    return 'consequent';
  }
  return null;
}

/**
 * True when every function between `node` and the acquiring scope is a callback handed to a
 * method of the acquired resource (`conn.query(sql, cb)`, `conn.commit(cb)`).
 */
function inContinuation(acquisition: Acquisition, node: TSESTree.Node): boolean {
  if (acquisition.resultRole !== 'resource' || !acquisition.resourceVariable) return false;
  for (let p: TSESTree.Node | undefined = node.parent; p && p !== acquisition.scope; p = p.parent) {
    if (isFunctionNode(p) && !isContinuationCall(acquisition, p)) return false;
  }
  return true;
}

/** `fn` is the last argument of a call of a method on the acquired resource. */
function isContinuationCall(acquisition: Acquisition, fn: FunctionNode): boolean {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[call.arguments.length - 1] !== fn) return false;
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = skipTransparent(callee.object);
  return object.type === AST_NODE_TYPES.Identifier &&
    Boolean(acquisition.resourceVariable?.references.some((r) => r.identifier === object));
}

/**
 * True when `call`'s result is read as an object, which throws on null or undefined: a property
 * read, a call of it, destructuring, `for … of`, an array spread. Reads on names are not checked
 * here: the walk has always treated them as safe, and only call results were new to trust.
 */
function usedAsObject(call: TSESTree.CallExpression): boolean {
  let node: TSESTree.Node = call;
  while (node.parent?.type === AST_NODE_TYPES.TSNonNullExpression || node.parent?.type === AST_NODE_TYPES.TSAsExpression) node = node.parent;
  const parent = node.parent;
  switch (parent?.type) {
    case AST_NODE_TYPES.MemberExpression:
      return parent.object === node && !parent.optional;
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.NewExpression:
      return parent.callee === node;
    case AST_NODE_TYPES.VariableDeclarator:
      return parent.init === node && parent.id.type !== AST_NODE_TYPES.Identifier;
    case AST_NODE_TYPES.AssignmentExpression:
      return parent.right === node && (parent.left.type === AST_NODE_TYPES.ObjectPattern || parent.left.type === AST_NODE_TYPES.ArrayPattern);
    case AST_NODE_TYPES.ForOfStatement:
      return parent.right === node;
    case AST_NODE_TYPES.SpreadElement:
      return parent.parent?.type !== AST_NODE_TYPES.ObjectExpression;
    default:
      return false;
  }
}

/** A name initialized with a call proved unable to throw whose result may still be nullish (`cache.get(key)`). */
function holdsTrustedNullable(sourceCode: Readonly<TSESLint.SourceCode>, id: TSESTree.Identifier): boolean {
  const variable = findVariable(sourceCode, id);
  return Boolean(variable?.defs.some((def) => {
    if (def.type !== 'Variable' || def.node.id !== def.name || !def.node.init) return false;
    const init = skipTransparent(def.node.init);
    return init.type === AST_NODE_TYPES.CallExpression && cannotThrow(init, sourceCode) && !cannotBeNullish(init, sourceCode);
  }));
}

function children(node: TSESTree.Node): TSESTree.Node[] {
  const out: TSESTree.Node[] = [];
  for (const key of Object.keys(node)) {
    if (key === 'parent' || key === 'typeAnnotation' || key === 'returnType' || key === 'typeArguments' || key === 'typeParameters') continue;
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) out.push(item);
    } else if (isNode(value)) {
      out.push(value);
    }
  }
  return out;
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && 'range' in value;
}

/** The first `return`/`throw`/`break`/`continue` in `node` that leaves it, not entering functions or loops it owns. */
export function firstExit(node: TSESTree.Node): ExitStatement | null {
  let found: ExitStatement | null = null;
  const visit = (n: TSESTree.Node, inLoop: boolean, inSwitch: boolean): void => {
    if (found || isFunctionNode(n)) return;
    switch (n.type) {
      case AST_NODE_TYPES.ReturnStatement:
      case AST_NODE_TYPES.ThrowStatement:
        found = n;
        return;
      case AST_NODE_TYPES.BreakStatement:
        if (n.label || !(inLoop || inSwitch)) found = n;
        return;
      case AST_NODE_TYPES.ContinueStatement:
        if (n.label || !inLoop) found = n;
        return;
      default:
        break;
    }
    const loop = inLoop || isLoop(n);
    const sw = inSwitch || n.type === AST_NODE_TYPES.SwitchStatement;
    for (const child of children(n)) visit(child, loop, sw);
  };
  visit(node, false, false);
  return found;
}

function isLoop(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.ForStatement ||
    node.type === AST_NODE_TYPES.ForInStatement ||
    node.type === AST_NODE_TYPES.ForOfStatement ||
    node.type === AST_NODE_TYPES.WhileStatement ||
    node.type === AST_NODE_TYPES.DoWhileStatement
  );
}

function isListOwner(node: TSESTree.Node | undefined): boolean {
  return (
    node?.type === AST_NODE_TYPES.BlockStatement ||
    node?.type === AST_NODE_TYPES.Program ||
    node?.type === AST_NODE_TYPES.SwitchCase ||
    node?.type === AST_NODE_TYPES.StaticBlock
  );
}

/** The statement list that holds `statement` (a block, the program, a switch case). */
export function statementList(statement: TSESTree.Node): readonly TSESTree.Node[] {
  const parent = statement.parent;
  if (!parent) return [statement];
  switch (parent.type) {
    case AST_NODE_TYPES.BlockStatement:
    case AST_NODE_TYPES.Program:
    case AST_NODE_TYPES.StaticBlock:
      return parent.body;
    case AST_NODE_TYPES.SwitchCase:
      return parent.consequent;
    default:
      return [statement];
  }
}

/** Climbs from a non-list construct (an `if` branch, a loop body) to the statement that sits in a list. */
function nearestStatement(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.parent && !isListOwner(current.parent)) current = current.parent;
  return current;
}
