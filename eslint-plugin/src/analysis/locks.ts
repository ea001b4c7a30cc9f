/**
 * Manual acquisitions: calls that take a lock, a permit or a pooled client by hand, what the
 * result is bound to, and where it is released.
 *
 * API (stable; later changes are additive):
 *
 * - `findManualAcquisitions(sourceCode, options?)` → every `Acquisition` in the file, in source
 *   order, computed once per file and options (WeakMap cache). `options.resources` adds
 *   acquire/release method pairs (the `resources` setting); `options.services` (typed parser
 *   services) also recognises owners by their declared types when they were created elsewhere.
 * - `getAcquisition(sourceCode, call, options?)` → the `Acquisition` whose `acquireCall` is `call`, or null.
 * - `isHeldAt(acquisition, node)` → true when `node` runs while the resource is held: after the
 *   acquire, in the same function (nested functions lexically inside count; filter them yourself
 *   if they run later), and not after a release that runs on every path to `node`.
 * - `acquisitionsHeldAt(sourceCode, node, options?)` → the acquisitions held at `node`.
 * - `releaseCoverStatement(site, scope)` → the statement after which a release has run on every
 *   normal path (the release's own statement, or the `try` whose `finally` holds it), or null.
 *
 * Whether the release is guaranteed on every path is `releasePaths.ts`'s question.
 *
 * Recognised: async-mutex `acquire()` (also through `withTimeout`/`tryAcquire`, `[value, release]`
 * destructuring, or `mutex.release()`), async-sema `acquire()`/`release()`, await-lock
 * `acquireAsync()`/`release()`, pg `pool.connect()` → `client.release()`, mysql2
 * `pool.getConnection()` → `conn.release()`, generic-pool `pool.acquire()` →
 * `pool.release(res)`/`pool.destroy(res)`, proper-lockfile `lock(file)`/`lockSync(file)` → `release()`/`unlock(file)`,
 * npm's lockfile `lockSync(file)` → `unlockSync(file)`,
 * redlock `acquire(keys, ttl)` → `lock.release()`/`redlock.release(lock)`, the `resources` pairs,
 * and for unknown libraries an evident pairing: `x.acquire()`/`x.lock()` with `x.release()`/`x.unlock()`
 * on the same object in the same function.
 *
 * Usage evidence: when the pool or lock comes from elsewhere (`import pool from '../db'`), what the
 * file does with an awaited acquire's result shows what the receiver is, whatever its name:
 * `const c = await x.connect()` or `x.getConnection()` then `c.release()` (a pooled connection),
 * `const r = await x.acquire()` then `x.release(r)` (a pooled resource), or then `r()` (a lock).
 * One such pair makes every other acquire of the same method on the same receiver in the file an
 * acquisition too, so one that never releases is found. A receiver whose uses show no pair
 * (`pool.query(…)`, `await client.connect()` with the result unused) is not evidence.
 *
 * Callback forms (`runExclusive`, `use`, `using`, `navigator.locks.request`) and one-shot
 * `pool.query()` are not manual acquisitions and never appear here.
 */
import type { ParserServices, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { ResourceShape } from '../util/settings';
import type { FunctionNode } from './ast';
import { calleeName, contains, enclosingFunction, findVariable, isFunctionNode, nodeAtIndex, nodesAtMatches, skipTransparent, staticPropertyName } from './ast';
import type { ConstructionKind } from './catalog';
import { CONNECTION_CLOSERS, CONNECTION_OPENERS } from './catalog';
import { getConstruction, thisClass } from './construction';
import { refMatches, resolveReference } from './imports';
import { askChecker, typeAt } from './typeQueries';
import { callsAcquireWrapper, callsReleaseHelper } from './acquireWrappers';
import { releasedByLibrary } from './libraryReleases';
import { opensOwnConnection } from './ownConnections';

type Services = Readonly<TSESLint.SourceCode>;

/** What is held: drives message wording (a waiting caller vs a pool running dry). */
export type AcquisitionKind =
  /** One holder at a time: async-mutex Mutex, await-lock, unknown `lock()`/`acquire()` pairs. */
  | 'lock'
  /** One of N permits: async-mutex Semaphore, async-sema. */
  | 'permit'
  /** A database connection lent by a pool: pg, mysql2. */
  | 'dbClient'
  /** A resource lent by generic-pool. */
  | 'pooledResource'
  /** A file lock: proper-lockfile. */
  | 'fileLock'
  /** A distributed lock: redlock. */
  | 'distributedLock'
  /** An open transaction on a pooled connection, ended by `commit()` or `rollback()`: knex, sequelize. */
  | 'transaction'
  /**
   * A connection the function opens for itself and closes by hand, not lent by a pool: pg
   * `new Client()` + `connect()` → `end()`, mysql2 `createConnection()` → `end()`, mongodb
   * `MongoClient.connect()` → `close()`. Only one created in the acquiring function and closed
   * there too counts (`ownConnections.ts`): a client connected once at startup is kept on purpose.
   */
  | 'connection';

/** How the acquisition was recognised. */
export type RecognizedBy = 'library' | 'type' | 'setting' | 'pairing' | 'usage';

/** How the code gives the resource back. */
export type ReleaseForm =
  /** `release()`: the function the acquire resolved to. */
  | 'releaseFunction'
  /** `client.release()`: a method on the acquired object. */
  | 'resultMethod'
  /** `mutex.release()`: a method on the object acquired from. */
  | 'ownerMethod'
  /** `pool.release(res)`: the object acquired from takes the resource back. */
  | 'ownerTakesResult'
  /** `lockfile.unlock(file)`: a module function. */
  | 'moduleFunction'
  /** `releaseConnection(conn)`: a function of the project, or a catalogued library function (`commit(conn)`), that releases its argument. */
  | 'helper';

export interface ReleaseSite {
  call: TSESTree.CallExpression;
  form: ReleaseForm;
  /** The `try` whose `finally` block contains the call (innermost), or null. */
  finallyOf: TSESTree.TryStatement | null;
  /** The `catch` clause that contains the call (innermost, same function), or null. */
  catchClause: TSESTree.CatchClause | null;
  /** True when the call runs in a function nested inside the acquiring one (a callback, a listener). */
  inNestedFunction: boolean;
}

/** Why the resource is not this function's to release. */
export type EscapeKind = 'returned' | 'stored' | 'collected' | 'passed' | 'aliased' | 'closure';

export interface Escape {
  kind: EscapeKind;
  node: TSESTree.Node;
}

export interface Acquisition {
  /** `mutex.acquire()`, `pool.connect()`, `lock(file)`. */
  acquireCall: TSESTree.CallExpression;
  /** The outermost expression of the acquire: `await mutex.acquire()` (or the call when not awaited). */
  acquireExpression: TSESTree.Expression;
  /** The statement that contains the acquire. */
  acquireStatement: TSESTree.Statement;
  kind: AcquisitionKind;
  /** Library module (`async-mutex`, `pg`, …); null for settings and pairings. */
  library: string | null;
  recognizedBy: RecognizedBy;
  /** The object acquired from (`mutex`, `this.pool`); null for module functions (`lockfile.lock`). */
  owner: TSESTree.Expression | null;
  /** The identifier the result is bound to (`release`, `client`), or null when the result is dropped. */
  resourceNode: TSESTree.Identifier | null;
  resourceVariable: TSESLint.Scope.Variable | null;
  /** What the bound result is: a release function, or the resource itself. */
  resultRole: 'releaseFunction' | 'resource' | null;
  /** Source text naming what is held, for messages: `release`, `client`, `mutex`. */
  displayName: string;
  /** Source text of the acquire, for messages: `mutex.acquire()`, `pool.connect()`. */
  acquireText: string;
  /** Every release of this acquisition in the acquiring function (nested functions included), source order. */
  releaseCalls: ReleaseSite[];
  /** The function the acquire runs in; null at module top level. */
  function: FunctionNode | null;
  /** The body that bounds the held region: the function body or the Program. */
  scope: TSESTree.Node;
  /** First way the resource leaves this function's ownership, if any. */
  escape: Escape | null;
  /** Lexical bounds of the held region: from the end of the acquire to the end of the last release (or of `scope`). */
  heldRange: readonly [number, number];
  /** The acquire holds once it returns, without `await` (`lockfile.lockSync(file)`). */
  synchronous: boolean;
  /**
   * The acquire is awaited and its result thrown away (`await pool.connect();`), where the result
   * is the only handle that gives the resource back: nothing can release it.
   */
  resultDropped: boolean;
}

export interface LockAnalysisOptions {
  /** Extra acquire/release method pairs (settings plus rule options). */
  resources?: readonly ResourceShape[];
  /** Typed parser services; used only when `program` is present. */
  services?: Partial<ParserServices> | null;
}

// ---------------------------------------------------------------------------------------------
// Library table

interface Shape {
  kind: AcquisitionKind;
  library: string | null;
  recognizedBy: RecognizedBy;
  resultRole: 'releaseFunction' | 'resource' | null;
  ownerRelease: readonly string[];
  resultRelease: readonly string[];
  ownerTakesResult: readonly string[];
  /** The acquire returns what it takes, not a promise of it (`lockSync`). */
  synchronous?: boolean;
}

const ACQUIRE_NAMES = ['acquire', 'acquireAsync', 'connect', 'createConnection', 'getConnection', 'lock', 'lockSync', 'transaction'];
/** Method names that give a resource back, for spotting one passed around uncalled. */
const RELEASE_NAMES: ReadonlySet<string> = new Set(['release', 'destroy', 'unlock', 'end', 'close']);
const PAIRINGS: Readonly<Record<string, readonly string[]>> = {
  acquire: ['release'],
  acquireAsync: ['release'],
  lock: ['unlock', 'release'],
};

/** Construction kinds that never pair an acquire with a release by hand (callback APIs). */
const CALLBACK_KINDS: ReadonlySet<ConstructionKind> = new Set(['limiter', 'queue', 'bottleneck', 'keyedLock']);

function shapeFor(kind: ConstructionKind, module: string, method: string, by: RecognizedBy): Shape | null {
  const base = { library: module, recognizedBy: by, ownerRelease: [], resultRelease: [], ownerTakesResult: [] };
  if ((kind === 'mutex' || kind === 'semaphore') && module === 'async-mutex' && method === 'acquire') {
    return { ...base, kind: kind === 'mutex' ? 'lock' : 'permit', resultRole: 'releaseFunction', ownerRelease: ['release'] };
  }
  if (kind === 'mutex' && module === 'await-lock' && method === 'acquireAsync') {
    return { ...base, kind: 'lock', resultRole: null, ownerRelease: ['release'] };
  }
  if (kind === 'semaphore' && module === 'async-sema' && method === 'acquire') {
    return { ...base, kind: 'permit', resultRole: null, ownerRelease: ['release'] };
  }
  if (kind === 'dbPool' && module === 'pg' && method === 'connect') {
    return { ...base, kind: 'dbClient', resultRole: 'resource', resultRelease: ['release'] };
  }
  if (kind === 'dbPool' && module.startsWith('mysql2') && method === 'getConnection') {
    return { ...base, kind: 'dbClient', resultRole: 'resource', resultRelease: ['release'], ownerTakesResult: ['releaseConnection'] };
  }
  const closers = CONNECTION_CLOSERS[module];
  if (kind === 'dbConnection' && method === 'connect' && closers) {
    return { ...base, kind: 'connection', resultRole: null, ownerRelease: closers };
  }
  if (kind === 'genericPool' && method === 'acquire') {
    return { ...base, kind: 'pooledResource', resultRole: 'resource', ownerTakesResult: ['release', 'destroy'] };
  }
  if (kind === 'redlock' && (method === 'acquire' || method === 'lock')) {
    return {
      ...base, kind: 'distributedLock', resultRole: 'resource',
      resultRelease: ['release', 'unlock'], ownerTakesResult: ['release', 'unlock'],
    };
  }
  return null;
}

// Declared types that identify an owner in typed mode, per package.
const TYPED_OWNERS: Readonly<Record<string, Readonly<Record<string, ConstructionKind>>>> = {
  'async-mutex': { Mutex: 'mutex', MutexInterface: 'mutex', Semaphore: 'semaphore', SemaphoreInterface: 'semaphore' },
  'await-lock': { AwaitLock: 'mutex', default: 'mutex' },
  'async-sema': { Sema: 'semaphore' },
  pg: { Pool: 'dbPool' },
  mysql2: { Pool: 'dbPool' },
  'generic-pool': { Pool: 'genericPool' },
  redlock: { Redlock: 'redlock', default: 'redlock' },
};

// ---------------------------------------------------------------------------------------------
// Public entry points

const fileCache = new WeakMap<object, Map<string, FileAcquisitions>>();

interface FileAcquisitions {
  list: Acquisition[];
  byCall: Map<TSESTree.CallExpression, Acquisition>;
}

export function findManualAcquisitions(sourceCode: Services, options: LockAnalysisOptions = {}): readonly Acquisition[] {
  return fileAcquisitions(sourceCode, options).list;
}

export function getAcquisition(
  sourceCode: Services,
  call: TSESTree.CallExpression,
  options: LockAnalysisOptions = {},
): Acquisition | null {
  return fileAcquisitions(sourceCode, options).byCall.get(call) ?? null;
}

export function acquisitionsHeldAt(
  sourceCode: Services,
  node: TSESTree.Node,
  options: LockAnalysisOptions = {},
): Acquisition[] {
  return findManualAcquisitions(sourceCode, options).filter((a) => isHeldAt(a, node));
}

export function isHeldAt(acquisition: Acquisition, node: TSESTree.Node): boolean {
  if (node.range[0] < acquisition.acquireCall.range[1]) return false;
  if (!contains(acquisition.scope, node)) return false;
  return !acquisition.releaseCalls.some((site) => !site.inNestedFunction && releasedBefore(site, node, acquisition.scope));
}

/** The statement that, once completed, has run the release on every normal path (null if none). */
export function releaseCoverStatement(site: ReleaseSite, scope: TSESTree.Node): TSESTree.Node | null {
  let current: TSESTree.Node = site.call;
  let parent = current.parent;
  // Climb through expressions that always evaluate the release: `await release()`, `release?.()`.
  while (
    parent &&
    (parent.type === AST_NODE_TYPES.AwaitExpression ||
      parent.type === AST_NODE_TYPES.ChainExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression)
  ) {
    current = parent;
    parent = current.parent;
  }
  if (parent?.type !== AST_NODE_TYPES.ExpressionStatement) return null;
  let statement: TSESTree.Node = parent;
  for (;;) {
    const block: TSESTree.Node | undefined = statement.parent;
    if (!block || statement === scope || block.type !== AST_NODE_TYPES.BlockStatement) return statement;
    const blockOwner: TSESTree.Node | undefined = block.parent;
    if (block === scope || isFunctionNode(blockOwner)) return statement;
    if (blockOwner?.type === AST_NODE_TYPES.TryStatement && blockOwner.finalizer === block) {
      statement = blockOwner;
      continue;
    }
    if (blockOwner && isStatementListOwner(blockOwner)) return statement;
    // A bare nested block `{ … }` always runs to its end.
    if (blockOwner && blockOwner.type === AST_NODE_TYPES.BlockStatement) {
      statement = block;
      continue;
    }
    return statement;
  }
}

function isStatementListOwner(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.Program || node.type === AST_NODE_TYPES.SwitchCase || node.type === AST_NODE_TYPES.StaticBlock;
}

function releasedBefore(site: ReleaseSite, node: TSESTree.Node, scope: TSESTree.Node): boolean {
  const cover = releaseCoverStatement(site, scope);
  if (!cover?.parent) return false;
  return cover.range[1] <= node.range[0] && contains(cover.parent, node);
}

// ---------------------------------------------------------------------------------------------
// Finding acquisitions

function fileAcquisitions(sourceCode: Services, options: LockAnalysisOptions): FileAcquisitions {
  const resources = options.resources ?? [];
  const typed = Boolean(options.services?.program);
  const key = `${typed ? 'typed' : 'plain'}:${JSON.stringify(resources)}`;
  let perFile = fileCache.get(sourceCode);
  if (!perFile) {
    perFile = new Map();
    fileCache.set(sourceCode, perFile);
  }
  const hit = perFile.get(key);
  if (hit) return hit;
  const names = new Set([...ACQUIRE_NAMES, ...resources.map((r) => r.acquire)]);
  const list: Acquisition[] = [];
  const candidates = new Set<TSESTree.CallExpression>();
  // Candidate calls, found by a text search: each acquire name in code that is a call's callee
  // (`name(` or `x.name(`).
  for (const node of nodesAtMatches(sourceCode, namePattern(names))) {
    if (node.type !== AST_NODE_TYPES.Identifier || !names.has(node.name)) continue;
    const call = candidateCall(node);
    if (call) candidates.add(call);
  }
  // Evidence first: a pair shown late in the file also explains an acquire earlier in it.
  const evidence = usageEvidence(sourceCode, candidates);
  for (const call of candidates) {
    const found = recognize(sourceCode, call, resources, typed ? options.services ?? null : null, evidence);
    if (found) list.push(found);
  }
  const recognized = new Set(list.map((a) => a.acquireCall));
  for (const { call, variable } of wrapperCandidates(sourceCode, recognized)) {
    const found = recognizeWrapper(sourceCode, call, variable);
    if (found) list.push(found);
  }
  list.sort((a, b) => a.acquireCall.range[0] - b.acquireCall.range[0]);
  const result = { list, byCall: new Map(list.map((a) => [a.acquireCall, a])) };
  perFile.set(key, result);
  return result;
}

const patterns = new Map<string, RegExp>();

/** One whole-identifier pattern per set of acquire names, compiled once. */
function namePattern(names: ReadonlySet<string>): RegExp {
  const key = [...names].join('\n');
  let pattern = patterns.get(key);
  if (!pattern) {
    pattern = new RegExp(`(?<![\\w$])(?:${[...names].map(escapeRegExp).join('|')})(?![\\w$])`, 'g');
    if (patterns.size < 64) patterns.set(key, pattern);
  }
  return pattern;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `x.acquire(…)` / `acquire(…)` where `node` is the callee's name. */
function candidateCall(node: TSESTree.Node | null): TSESTree.CallExpression | null {
  if (node?.type !== AST_NODE_TYPES.Identifier) return null;
  let callee: TSESTree.Node = node;
  if (node.parent?.type === AST_NODE_TYPES.MemberExpression && node.parent.property === node) callee = node.parent;
  const call = callee.parent;
  return call?.type === AST_NODE_TYPES.CallExpression && call.callee === callee ? call : null;
}

function recognize(
  sourceCode: Services,
  call: TSESTree.CallExpression,
  resources: readonly ResourceShape[],
  services: Partial<ParserServices> | null,
  evidence: UsageEvidence,
): Acquisition | null {
  const callee = skipTransparent(call.callee);
  const fn = enclosingFunction(call);
  const scope: TSESTree.Node = fn ? fn.body : sourceCode.ast;
  if (callee.type === AST_NODE_TYPES.Identifier || callee.type === AST_NODE_TYPES.MemberExpression) {
    const ref = resolveReference(sourceCode, callee);
    const fileLock = FILE_LOCKS.find((entry) => refMatches(ref, entry.module, entry.acquire));
    if (fileLock) {
      const shape: Shape = {
        kind: 'fileLock', library: fileLock.module, recognizedBy: 'library', resultRole: fileLock.resultRole,
        ownerRelease: [], resultRelease: [], ownerTakesResult: [], synchronous: fileLock.acquire.endsWith('Sync'),
      };
      return build(sourceCode, call, null, shape, fn, scope);
    }
    const opener = CONNECTION_OPENERS.find((entry) => refMatches(ref, entry.module, ...entry.path));
    if (opener) {
      const shape: Shape = {
        kind: 'connection', library: opener.module, recognizedBy: 'library', resultRole: 'resource',
        ownerRelease: [], resultRelease: opener.close, ownerTakesResult: [],
      };
      return ownConnection(sourceCode, build(sourceCode, call, null, shape, fn, scope));
    }
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  if (method === null) return null;
  const owner = callee.object;
  if (owner.type === AST_NODE_TYPES.Super) return null;
  const construction = getConstruction(sourceCode, owner);
  let shape: Shape | null = null;
  if (construction?.kind) {
    if (CALLBACK_KINDS.has(construction.kind)) return null;
    shape = shapeFor(construction.kind, construction.ref.module, method, construction.fromType ? 'type' : 'library');
  }
  if (!shape && services) shape = typedShape(services, owner, method);
  if (!shape) shape = settingShape(resources, construction?.ref.module ?? null, method);
  if (!shape && !construction?.kind) shape = evidenceShape(evidence, call) ?? pairingShape(sourceCode, owner, method, scope);
  if (!shape) return null;
  const built = build(sourceCode, call, owner, shape, fn, scope);
  return shape.kind === 'connection' ? ownConnection(sourceCode, built) : built;
}

/**
 * A connection is this function's to close only when it opens it for itself (see `opensOwnConnection`);
 * the client's own handle then says when it is handed on: `return client`, `this.db = client`.
 */
function ownConnection(sourceCode: Services, acquisition: Acquisition | null): Acquisition | null {
  if (!acquisition || !opensOwnConnection(sourceCode, acquisition)) return null;
  const owner = acquisition.owner ? skipTransparent(acquisition.owner) : null;
  const variable = owner?.type === AST_NODE_TYPES.Identifier ? findVariable(sourceCode, owner) : null;
  if (acquisition.escape || !variable) return acquisition;
  return { ...acquisition, escape: findEscape(variable, acquisition.releaseCalls, acquisition.acquireCall, acquisition.scope) };
}

/**
 * File locks taken by a module function and given back by another on the same path: proper-lockfile
 * `lock(file)`/`lockSync(file)` resolve to (or return) a release function, and `unlock(file)` also
 * releases; npm's lockfile `lockSync(file)` returns nothing and `unlockSync(file)` releases.
 */
const FILE_LOCKS: readonly { module: string; acquire: string; resultRole: 'releaseFunction' | null; unlock: readonly string[] }[] = [
  { module: 'proper-lockfile', acquire: 'lock', resultRole: 'releaseFunction', unlock: ['unlock'] },
  { module: 'proper-lockfile', acquire: 'lockSync', resultRole: 'releaseFunction', unlock: ['unlockSync', 'unlock'] },
  { module: 'lockfile', acquire: 'lockSync', resultRole: null, unlock: ['unlockSync', 'unlock'] },
];

function settingShape(resources: readonly ResourceShape[], module: string | null, method: string): Shape | null {
  const entry = resources.find((r) => r.acquire === method && (r.module === undefined || r.module === module));
  if (!entry) return null;
  return {
    kind: 'lock', library: entry.module ?? null, recognizedBy: 'setting', resultRole: 'resource',
    ownerRelease: [entry.release], resultRelease: [entry.release], ownerTakesResult: [],
  };
}

function pairingShape(sourceCode: Services, owner: TSESTree.Expression, method: string, scope: TSESTree.Node): Shape | null {
  const releases = PAIRINGS[method];
  if (!releases) return null;
  const found = ownerMethodCalls(sourceCode, owner, releases, scope);
  if (found.length === 0) return null;
  return {
    kind: 'lock', library: null, recognizedBy: 'pairing', resultRole: null,
    ownerRelease: releases, resultRelease: [], ownerTakesResult: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Acquire wrappers

const AWAIT_PATTERN = /(?<![\w$])await(?![\w$])/g;
const WRAPPED_ACQUIRE_TEXT = /\.(?:getConnection|connect)\(/;

/**
 * `const c = await getClient()`: awaited calls bound to a name that are not acquire methods
 * themselves, in a file that releases something (every form of evidence says `release`).
 */
function wrapperCandidates(sourceCode: Services, taken: ReadonlySet<TSESTree.CallExpression>): { call: TSESTree.CallExpression; variable: TSESLint.Scope.Variable }[] {
  // A wrapper that hands its acquire on (`return connection`) names the acquire it wraps.
  if (!sourceCode.text.includes('release') && !WRAPPED_ACQUIRE_TEXT.test(sourceCode.text)) return [];
  const out: { call: TSESTree.CallExpression; variable: TSESLint.Scope.Variable }[] = [];
  for (const node of nodesAtMatches(sourceCode, AWAIT_PATTERN)) {
    if (node.type !== AST_NODE_TYPES.AwaitExpression) continue;
    const call = skipTransparent(node.argument);
    // Only a call awaited as it stands (`await f()`, not `await (f() as T)`) is read as a wrapper.
    if (call.type !== AST_NODE_TYPES.CallExpression || call.parent !== node || taken.has(call)) continue;
    // The variable is looked up once here and handed on: the scope walk is most of a candidate's cost.
    const variable = boundName(sourceCode, node);
    if (variable) out.push({ call, variable });
  }
  return out;
}

/** The variable an awaited expression is bound to (`const c = await …`, `c = await …`), or null. */
function boundName(sourceCode: Services, awaited: TSESTree.Node): TSESLint.Scope.Variable | null {
  let expression: TSESTree.Node = awaited;
  while (expression.parent?.type === AST_NODE_TYPES.TSAsExpression || expression.parent?.type === AST_NODE_TYPES.TSNonNullExpression) {
    expression = expression.parent;
  }
  const parent = expression.parent;
  let target: TSESTree.Node | null = null;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === expression) target = parent.id;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '=' && parent.right === expression) target = parent.left;
  return target?.type === AST_NODE_TYPES.Identifier ? findVariable(sourceCode, target) : null;
}

/**
 * `const c = await getConnection(conn)` where `getConnection` hands back an acquired resource,
 * and the caller shows how it goes back: `c.release()`, `release()` for a returned release
 * function, or `releaseConnection(c)`. Without such a use the result is not evidence: the
 * helper may hand over a client its caller keeps.
 */
function recognizeWrapper(sourceCode: Services, call: TSESTree.CallExpression, variable: TSESLint.Scope.Variable): Acquisition | null {
  let pairing: UsagePairing | null = null;
  let returned = false;
  const passed: { call: TSESTree.CallExpression; index: number }[] = [];
  for (const reference of variable.references) {
    const id = reference.identifier;
    if (id.type !== AST_NODE_TYPES.Identifier || id.range[0] < call.range[1]) continue;
    const use = usage(id);
    if ((use.kind === 'method' && use.name === 'release') ||
      (use.kind === 'releaseReference' && use.node.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(use.node) === 'release')) {
      pairing = 'resultMethod';
      break;
    }
    if (use.kind === 'called') {
      pairing = 'releaseFunction';
      break;
    }
    if (use.kind === 'argument' && use.call.type === AST_NODE_TYPES.CallExpression) {
      passed.push({ call: use.call, index: argumentIndex(use.call, argumentOf(id)) });
    }
    if (use.kind === 'returned') returned = true;
  }
  if (!pairing && passed.some((p) => callsReleaseHelper(sourceCode, p.call, p.index, ['release']))) pairing = 'resultMethod';
  // `const c = await getConnection(pool); …; return c`: a wrapper of a wrapper, whose callers
  // release; what it must not do is lose the connection on the way (handOver.ts).
  if (!pairing && returned) pairing = 'resultMethod';
  if (!pairing || !callsAcquireWrapper(sourceCode, call)) return null;
  const fn = enclosingFunction(call);
  return build(sourceCode, call, null, USAGE_SHAPES[pairing], fn, fn ? fn.body : sourceCode.ast);
}

function argumentIndex(call: TSESTree.CallExpression, node: TSESTree.Node): number {
  return (call.arguments as readonly TSESTree.Node[]).indexOf(node);
}

// ---------------------------------------------------------------------------------------------
// Usage evidence

/** The pair an awaited acquire's result shows. */
type UsagePairing = 'resultMethod' | 'ownerTakesResult' | 'releaseFunction' | 'transactionEnd';

/** Acquire methods whose result can show a pair, and the releases that show it. */
const USAGE_RELEASES: Readonly<Record<string, { resultMethod: readonly string[]; ownerTakesResult: readonly string[]; called: boolean }>> = {
  connect: { resultMethod: ['release'], ownerTakesResult: ['releaseConnection'], called: false },
  getConnection: { resultMethod: ['release'], ownerTakesResult: ['releaseConnection'], called: false },
  acquire: { resultMethod: [], ownerTakesResult: ['release', 'destroy'], called: true },
  lock: { resultMethod: [], ownerTakesResult: [], called: true },
  // `const trx = await db.transaction()` (knex, sequelize, without a callback) ends with `commit` or `rollback`.
  transaction: { resultMethod: ['commit', 'rollback'], ownerTakesResult: [], called: false },
};

const USAGE_SHAPES: Readonly<Record<UsagePairing, Shape>> = {
  resultMethod: {
    kind: 'dbClient', library: null, recognizedBy: 'usage', resultRole: 'resource',
    ownerRelease: [], resultRelease: ['release'], ownerTakesResult: ['releaseConnection'],
  },
  ownerTakesResult: {
    kind: 'pooledResource', library: null, recognizedBy: 'usage', resultRole: 'resource',
    ownerRelease: [], resultRelease: [], ownerTakesResult: ['release', 'destroy'],
  },
  releaseFunction: {
    kind: 'lock', library: null, recognizedBy: 'usage', resultRole: 'releaseFunction',
    ownerRelease: [], resultRelease: [], ownerTakesResult: [],
  },
  transactionEnd: {
    kind: 'transaction', library: null, recognizedBy: 'usage', resultRole: 'resource',
    ownerRelease: [], resultRelease: ['commit', 'rollback'], ownerTakesResult: [],
  },
};

interface UsageEvidence {
  /** The pair each acquire's own result shows. */
  byCall: ReadonlyMap<TSESTree.CallExpression, UsagePairing>;
  /** Per receiver and method: the pair the first acquire showing one shows. */
  byReceiver: ReadonlyMap<string, UsagePairing>;
  /** Each candidate's receiver key, when it has one. */
  keys: ReadonlyMap<TSESTree.CallExpression, string>;
}

function usageEvidence(sourceCode: Services, candidates: ReadonlySet<TSESTree.CallExpression>): UsageEvidence {
  const byCall = new Map<TSESTree.CallExpression, UsagePairing>();
  const byReceiver = new Map<string, UsagePairing>();
  const keys = new Map<TSESTree.CallExpression, string>();
  const ids = new Map<object, number>();
  for (const call of candidates) {
    const callee = skipTransparent(call.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) continue;
    const method = staticPropertyName(callee);
    if (method === null || !Object.hasOwn(USAGE_RELEASES, method)) continue;
    const key = receiverKey(sourceCode, callee.object, ids);
    if (key !== null) keys.set(call, `${key}#${method}`);
    const pairing = pairingShown(sourceCode, call, callee.object, method);
    if (!pairing) continue;
    byCall.set(call, pairing);
    if (key !== null && !byReceiver.has(`${key}#${method}`)) byReceiver.set(`${key}#${method}`, pairing);
  }
  return { byCall, byReceiver, keys };
}

function evidenceShape(evidence: UsageEvidence, call: TSESTree.CallExpression): Shape | null {
  const key = evidence.keys.get(call);
  const pairing = evidence.byCall.get(call) ?? (key === undefined ? undefined : evidence.byReceiver.get(key));
  return pairing ? USAGE_SHAPES[pairing] : null;
}

/**
 * `const c = await x.connect()` … `c.release()`: the pair this acquire's own result shows, or null.
 * Only an awaited acquire bound to a plain name counts; a dropped result (`await client.connect()`)
 * shows nothing.
 */
function pairingShown(sourceCode: Services, call: TSESTree.CallExpression, owner: TSESTree.Expression, method: string): UsagePairing | null {
  const releases = USAGE_RELEASES[method];
  if (!releases || call.arguments.some((a) => isFunctionNode(a))) return null;
  let expression: TSESTree.Node = call;
  const climb = (): void => {
    while (expression.parent?.type === AST_NODE_TYPES.TSAsExpression || expression.parent?.type === AST_NODE_TYPES.TSNonNullExpression) {
      expression = expression.parent;
    }
  };
  climb();
  if (expression.parent?.type !== AST_NODE_TYPES.AwaitExpression) return null;
  expression = expression.parent;
  climb();
  const parent = expression.parent;
  let target: TSESTree.Node | null = null;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === expression) target = parent.id;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '=' && parent.right === expression) target = parent.left;
  // `const { release } = await x.acquire()`: only a call of the destructured release shows a pair.
  const destructured = target?.type === AST_NODE_TYPES.ObjectPattern && releases.called ? destructuredRelease(target) : null;
  if (destructured) target = destructured;
  if (target?.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = findVariable(sourceCode, target);
  if (!variable) return null;
  for (const reference of variable.references) {
    if (destructured && reference.identifier.range[0] < call.range[1]) continue;
    if (destructured) {
      const use = usage(reference.identifier as TSESTree.Identifier);
      if (use.kind === 'called') return 'releaseFunction';
      continue;
    }
    const id = reference.identifier;
    if (id.type !== AST_NODE_TYPES.Identifier || id.range[0] < call.range[1]) continue;
    const use = usage(id);
    const ended = method === 'transaction' ? 'transactionEnd' : 'resultMethod';
    if (use.kind === 'method' && releases.resultMethod.includes(use.name)) return ended;
    if (use.kind === 'releaseReference' && use.node.type === AST_NODE_TYPES.MemberExpression &&
      releases.resultMethod.includes(staticPropertyName(use.node) ?? '')) {
      return ended;
    }
    if (use.kind === 'called' && releases.called) return 'releaseFunction';
    if (use.kind === 'argument' && use.call.type === AST_NODE_TYPES.CallExpression) {
      const releaseCallee = skipTransparent(use.call.callee);
      if (
        releaseCallee.type === AST_NODE_TYPES.MemberExpression &&
        releases.ownerTakesResult.includes(staticPropertyName(releaseCallee) ?? '') &&
        sameObject(sourceCode, releaseCallee.object, owner)
      ) {
        return method === 'acquire' ? 'ownerTakesResult' : 'resultMethod';
      }
    }
  }
  return null;
}

/**
 * Names one receiver across the file: a variable (by identity, so shadowing tells two `pool`s
 * apart) or `this` of one class, followed by static property names. Null for anything else.
 */
function receiverKey(sourceCode: Services, owner: TSESTree.Node, ids: Map<object, number>): string | null {
  const path: string[] = [];
  let current = skipTransparent(owner);
  while (current.type === AST_NODE_TYPES.MemberExpression) {
    const name = staticPropertyName(current);
    if (name === null) return null;
    path.unshift(name);
    current = skipTransparent(current.object);
  }
  let root: object | null = null;
  if (current.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, current);
    if (!variable) return [`global:${current.name}`, ...path].join('.');
    root = variable;
  } else if (current.type === AST_NODE_TYPES.ThisExpression) {
    root = thisClass(current);
  }
  if (!root) return null;
  let id = ids.get(root);
  if (id === undefined) {
    id = ids.size;
    ids.set(root, id);
  }
  return [String(id), ...path].join('.');
}

function typedShape(services: Partial<ParserServices>, owner: TSESTree.Expression, method: string): Shape | null {
  const program = services.program;
  const map = services.esTreeNodeToTSNodeMap;
  if (!program || !map) return null;
  const checker = program.getTypeChecker();
  const type = typeAt({ program, esTreeNodeToTSNodeMap: map }, owner);
  const qualified = type && askChecker(() => {
    const symbol = type.aliasSymbol ?? type.getSymbol();
    return symbol ? checker.getFullyQualifiedName(symbol) : null;
  }, null);
  if (!qualified) return null;
  const match = /^"([^"]+)"\.(\w+)$/.exec(qualified);
  if (!match) return null;
  const pkg = packageOf(match[1] as string);
  const kind = pkg ? TYPED_OWNERS[pkg]?.[match[2] as string] : undefined;
  return pkg && kind ? shapeFor(kind, pkg, method, 'type') : null;
}

/** `/x/node_modules/@types/pg/index` → `pg`; an ambient `declare module 'pg'` is already `pg`. */
function packageOf(moduleName: string): string | null {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(moduleName.replace(/\\/g, '/'));
  if (!inModules) return moduleName.startsWith('/') || moduleName.includes(':') ? null : moduleName.split('/')[0] ?? null;
  const name = inModules[1] as string;
  return name.startsWith('@types/') ? name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2') : name;
}

// ---------------------------------------------------------------------------------------------
// Building one acquisition

function build(
  sourceCode: Services,
  call: TSESTree.CallExpression,
  owner: TSESTree.Expression | null,
  shape: Shape,
  fn: FunctionNode | null,
  scope: TSESTree.Node,
): Acquisition | null {
  // `pool.connect((err, client, done) => …)` and `lock(file, cb)` are callback forms.
  if (call.arguments.some((a) => isFunctionNode(a))) return null;
  let expression: TSESTree.Expression = call;
  while (
    expression.parent &&
    (expression.parent.type === AST_NODE_TYPES.AwaitExpression ||
      expression.parent.type === AST_NODE_TYPES.TSAsExpression ||
      expression.parent.type === AST_NODE_TYPES.TSNonNullExpression)
  ) {
    expression = expression.parent;
  }
  const statement = enclosingStatement(expression);
  if (!statement) return null;
  const binding = bindingOf(sourceCode, expression, shape);
  if (binding === 'unsupported') return null;
  const { node: resourceNode, variable, escape: bindingEscape } = binding;
  const resultRole = resourceNode ? (binding.role ?? shape.resultRole) : null;
  const releaseCalls = findReleases(sourceCode, { owner, shape, variable, resultRole, scope, call });
  const escape = bindingEscape ?? (variable ? findEscape(variable, releaseCalls, call, scope, shape.kind === 'transaction') : null);
  const lastRelease = releaseCalls.reduce((end, site) => Math.max(end, site.call.range[1]), -1);
  const ownerText = owner ? sourceCode.getText(owner) : null;
  return {
    acquireCall: call,
    acquireExpression: expression,
    acquireStatement: statement,
    kind: shape.kind,
    library: shape.library,
    recognizedBy: shape.recognizedBy,
    owner,
    resourceNode,
    resourceVariable: variable,
    resultRole,
    displayName: resourceNode?.name ?? ownerText ?? 'the lock',
    // `pool\n  .acquire()` reads `pool.acquire()` in a message.
    acquireText: `${sourceCode.getText(call.callee).replace(/\s*\n\s*/g, '')}()`,
    releaseCalls,
    function: fn,
    scope,
    escape,
    heldRange: [call.range[1], lastRelease >= 0 ? lastRelease : scope.range[1]],
    synchronous: shape.synchronous === true,
    resultDropped: droppedResult(expression, shape),
  };
}

/**
 * `await pool.connect();` as a statement, for a pool whose client is given back only through the
 * client itself (pg, mysql2) or by handing it to the pool (generic-pool): with the client dropped,
 * the pool's slot is gone for the life of the process.
 */
function droppedResult(expression: TSESTree.Expression, shape: Shape): boolean {
  if (expression.type !== AST_NODE_TYPES.AwaitExpression || expression.parent?.type !== AST_NODE_TYPES.ExpressionStatement) return false;
  if (shape.resultRole !== 'resource' || shape.ownerRelease.length > 0) return false;
  return (shape.kind === 'dbClient' || shape.kind === 'pooledResource') && shape.recognizedBy !== 'setting';
}

function enclosingStatement(node: TSESTree.Node): TSESTree.Statement | null {
  let current: TSESTree.Node | undefined = node;
  while (current) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent || isFunctionNode(parent)) return null;
    if (
      parent.type === AST_NODE_TYPES.BlockStatement ||
      parent.type === AST_NODE_TYPES.Program ||
      parent.type === AST_NODE_TYPES.SwitchCase ||
      parent.type === AST_NODE_TYPES.StaticBlock
    ) {
      return current as TSESTree.Statement;
    }
    current = parent;
  }
  return null;
}

interface Binding {
  node: TSESTree.Identifier | null;
  variable: TSESLint.Scope.Variable | null;
  escape: Escape | null;
  /** Set when the binding itself says what it is: `const { release } = …` names a release function. */
  role?: 'releaseFunction';
}

/** Property names that, destructured from an acquire's result, are its release function. */
const DESTRUCTURED_RELEASES: ReadonlySet<string> = new Set(['release', 'unlock']);

/**
 * `const { nonce, release } = await manager.lock(addresses)`: the identifier the release function
 * is bound to, or null when the pattern takes none (or renames it through a default or a nested pattern).
 */
function destructuredRelease(pattern: TSESTree.ObjectPattern): TSESTree.Identifier | null {
  for (const prop of pattern.properties) {
    if (prop.type !== AST_NODE_TYPES.Property || prop.computed) continue;
    const key = prop.key.type === AST_NODE_TYPES.Identifier ? prop.key.name : prop.key.type === AST_NODE_TYPES.Literal ? String(prop.key.value) : null;
    if (key !== null && DESTRUCTURED_RELEASES.has(key) && prop.value.type === AST_NODE_TYPES.Identifier) return prop.value;
  }
  return null;
}

function bindingOf(sourceCode: Services, expression: TSESTree.Expression, shape: Shape): Binding | 'unsupported' {
  const parent = expression.parent;
  const none: Binding = { node: null, variable: null, escape: null };
  if (!parent) return none;
  let target: TSESTree.Node | null = null;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === expression) {
    // `using` / `await using` dispose the resource at the end of the block.
    if (parent.parent.kind === 'using' || parent.parent.kind === 'await using') return 'unsupported';
    target = parent.id;
  }
  else if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.right === expression && parent.operator === '=') {
    target = parent.left;
    if (target.type === AST_NODE_TYPES.MemberExpression) return { ...none, escape: { kind: 'stored', node: parent } };
  } else if (parent.type === AST_NODE_TYPES.ExpressionStatement) {
    return none;
  } else if (parent.type === AST_NODE_TYPES.ReturnStatement || parent.type === AST_NODE_TYPES.ArrowFunctionExpression) {
    return { ...none, escape: { kind: 'returned', node: parent } };
  } else {
    return { ...none, escape: { kind: 'passed', node: parent } };
  }
  if (!target) return none;
  // `const [value, release] = await semaphore.acquire()`
  if (target.type === AST_NODE_TYPES.ArrayPattern && shape.library === 'async-mutex') {
    const second = target.elements[1];
    if (second?.type !== AST_NODE_TYPES.Identifier) return target.elements.length < 2 ? none : 'unsupported';
    target = second;
  }
  if (target.type === AST_NODE_TYPES.ObjectPattern && shape.resultRole !== 'resource') {
    const release = destructuredRelease(target);
    if (!release) return 'unsupported';
    return { node: release, variable: findVariable(sourceCode, release), escape: null, role: 'releaseFunction' };
  }
  if (target.type !== AST_NODE_TYPES.Identifier) return 'unsupported';
  const variable = findVariable(sourceCode, target);
  return { node: target, variable, escape: null };
}

interface ReleaseQuery {
  owner: TSESTree.Expression | null;
  shape: Shape;
  variable: TSESLint.Scope.Variable | null;
  resultRole: 'releaseFunction' | 'resource' | null;
  scope: TSESTree.Node;
  call: TSESTree.CallExpression;
}

function findReleases(sourceCode: Services, q: ReleaseQuery): ReleaseSite[] {
  const sites = new Map<TSESTree.CallExpression, ReleaseForm>();
  if (q.variable) {
    for (const reference of q.variable.references) {
      const id = reference.identifier;
      if (id.type !== AST_NODE_TYPES.Identifier || !contains(q.scope, id) || id.range[0] < q.call.range[1]) continue;
      const use = usage(id);
      // A configured pair may return the release function itself: `const unlock = await store.lockAsync()`.
      const callable = q.resultRole === 'releaseFunction' || q.shape.recognizedBy === 'setting';
      if (callable && use.kind === 'called') sites.set(use.call, 'releaseFunction');
      if (q.resultRole === 'resource' && use.kind === 'method' && q.shape.resultRelease.includes(use.name)) {
        sites.set(use.call, 'resultMethod');
      }
      if (q.resultRole === 'resource' && use.kind === 'argument' && use.call.type === AST_NODE_TYPES.CallExpression && q.owner) {
        const callee = skipTransparent(use.call.callee);
        if (
          callee.type === AST_NODE_TYPES.MemberExpression &&
          q.shape.ownerTakesResult.includes(staticPropertyName(callee) ?? '') &&
          sameObject(sourceCode, callee.object, q.owner)
        ) {
          sites.set(use.call, 'ownerTakesResult');
        }
      }
      if (q.resultRole === 'resource' && use.kind === 'argument' && use.call.type === AST_NODE_TYPES.CallExpression && !sites.has(use.call)) {
        const index = argumentIndex(use.call, argumentOf(id));
        // A library function the catalogue knows (a query builder's `commit(client)`), or a project function that releases it.
        if (releasedByLibrary(sourceCode, use.call, index) ||
          callsReleaseHelper(sourceCode, use.call, index, q.shape.resultRelease.length > 0 ? q.shape.resultRelease : ['release'])) {
          sites.set(use.call, 'helper');
        }
      }
    }
  }
  if (q.owner && q.shape.ownerRelease.length > 0) {
    for (const call of ownerMethodCalls(sourceCode, q.owner, q.shape.ownerRelease, q.scope)) {
      if (call.range[0] >= q.call.range[1] && call.arguments.length <= 1) sites.set(call, 'ownerMethod');
    }
  }
  const fileLock = q.shape.kind === 'fileLock' ? FILE_LOCKS.find((entry) => entry.module === q.shape.library && entry.acquire === calleeName(q.call)) : undefined;
  if (fileLock) {
    for (const call of moduleUnlockCalls(sourceCode, q.call, q.scope, fileLock)) sites.set(call, 'moduleFunction');
  }
  return [...sites]
    .map(([call, form]) => siteOf(call, form, q.scope))
    .sort((a, b) => a.call.range[0] - b.call.range[0]);
}

/** The argument node a reference sits in: the identifier, or the `x!` / `x as T` around it. */
function argumentOf(id: TSESTree.Identifier): TSESTree.Node {
  let node: TSESTree.Node = id;
  while (node.parent?.type === AST_NODE_TYPES.TSNonNullExpression || node.parent?.type === AST_NODE_TYPES.TSAsExpression) node = node.parent;
  return node;
}

function siteOf(call: TSESTree.CallExpression, form: ReleaseForm, scope: TSESTree.Node): ReleaseSite {
  let finallyOf: TSESTree.TryStatement | null = null;
  let catchClause: TSESTree.CatchClause | null = null;
  let inNestedFunction = false;
  let child: TSESTree.Node = call;
  let current: TSESTree.Node | undefined = call.parent;
  while (current && child !== scope) {
    if (isFunctionNode(current)) inNestedFunction = true;
    if (!inNestedFunction && !finallyOf && current.type === AST_NODE_TYPES.TryStatement && current.finalizer === child) {
      finallyOf = current;
    }
    if (!inNestedFunction && !catchClause && current.type === AST_NODE_TYPES.CatchClause) catchClause = current;
    child = current;
    current = current.parent;
  }
  return { call, form, finallyOf, catchClause, inNestedFunction };
}

type Usage =
  | { kind: 'called'; call: TSESTree.CallExpression }
  | { kind: 'method'; name: string; call: TSESTree.CallExpression }
  | { kind: 'member' }
  | { kind: 'releaseReference'; node: TSESTree.Node }
  | { kind: 'argument'; call: TSESTree.CallExpression | TSESTree.NewExpression }
  | { kind: 'returned'; node: TSESTree.Node }
  | { kind: 'stored'; node: TSESTree.Node }
  | { kind: 'collected'; node: TSESTree.Node }
  | { kind: 'aliased'; node: TSESTree.Node }
  | { kind: 'harmless' }
  | { kind: 'write' };

/** What one reference to the bound result does with it. */
function usage(id: TSESTree.Identifier): Usage {
  let node: TSESTree.Node = id;
  let parent = node.parent;
  while (parent && (parent.type === AST_NODE_TYPES.TSNonNullExpression || parent.type === AST_NODE_TYPES.TSAsExpression)) {
    node = parent;
    parent = node.parent;
  }
  if (!parent) return { kind: 'harmless' };
  switch (parent.type) {
    case AST_NODE_TYPES.CallExpression:
      if (parent.callee === node) return { kind: 'called', call: parent };
      return { kind: 'argument', call: parent };
    case AST_NODE_TYPES.NewExpression:
      return { kind: 'argument', call: parent };
    case AST_NODE_TYPES.MemberExpression: {
      if (parent.object !== node) return { kind: 'harmless' };
      const name = staticPropertyName(parent);
      const call = parent.parent?.type === AST_NODE_TYPES.ChainExpression ? parent.parent.parent : parent.parent;
      const callee = parent.parent?.type === AST_NODE_TYPES.ChainExpression ? parent.parent : parent;
      if (name !== null && call?.type === AST_NODE_TYPES.CallExpression && call.callee === callee) {
        return { kind: 'method', name, call };
      }
      // `stream.on('end', client.release)`: the release method handed over as a value.
      if (name !== null && RELEASE_NAMES.has(name)) return { kind: 'releaseReference', node: parent };
      return { kind: 'member' };
    }
    case AST_NODE_TYPES.ReturnStatement:
    case AST_NODE_TYPES.ArrowFunctionExpression:
    case AST_NODE_TYPES.YieldExpression:
      return { kind: 'returned', node: parent };
    case AST_NODE_TYPES.ChainExpression: {
      // `release?.()` parses as ChainExpression > CallExpression(optional) with the identifier as callee.
      return { kind: 'harmless' };
    }
    case AST_NODE_TYPES.AssignmentExpression:
      if (parent.left === node) return { kind: 'write' };
      return parent.left.type === AST_NODE_TYPES.MemberExpression ? { kind: 'stored', node: parent } : { kind: 'aliased', node: parent };
    case AST_NODE_TYPES.VariableDeclarator:
      return parent.id === node ? { kind: 'write' } : { kind: 'aliased', node: parent };
    case AST_NODE_TYPES.ArrayExpression:
    case AST_NODE_TYPES.Property:
    case AST_NODE_TYPES.SpreadElement:
      return { kind: 'collected', node: parent };
    case AST_NODE_TYPES.PropertyDefinition:
      return { kind: 'stored', node: parent };
    default:
      return { kind: 'harmless' };
  }
}

function findEscape(
  variable: TSESLint.Scope.Variable,
  releases: readonly ReleaseSite[],
  call: TSESTree.CallExpression,
  scope: TSESTree.Node,
  lentInOptions = false,
): Escape | null {
  const releaseCalls = new Set(releases.map((r) => r.call));
  for (const reference of variable.references) {
    const id = reference.identifier;
    if (id.type !== AST_NODE_TYPES.Identifier || id.range[0] < call.range[1]) continue;
    const use = usage(id);
    // `Item.update(values, { transaction: t })`: a transaction named in a call's options is
    // used by that call, not handed to it; ending it stays this function's job.
    if (lentInOptions && use.kind === 'collected' && isOptionsArgument(use.node)) continue;
    switch (use.kind) {
      case 'returned':
      case 'stored':
      case 'collected':
      case 'aliased':
        return { kind: use.kind, node: use.node };
      case 'releaseReference':
        return { kind: 'passed', node: use.node };
      case 'argument':
        if (use.call.type === AST_NODE_TYPES.NewExpression || !releaseCalls.has(use.call)) return { kind: 'passed', node: use.call };
        break;
      default:
        break;
    }
    // Anything inside a nested function (a listener, a timer) may run after this function returns.
    const fn = enclosingFunction(id);
    if (fn && contains(scope, fn) && fn.body !== scope) return { kind: 'closure', node: fn };
  }
  return null;
}

/** A property of an object literal written as a call's argument: `f(x, { transaction: t })`. */
function isOptionsArgument(node: TSESTree.Node): boolean {
  const object = node.type === AST_NODE_TYPES.Property ? node.parent : null;
  const call = object?.type === AST_NODE_TYPES.ObjectExpression ? object.parent : null;
  return (call?.type === AST_NODE_TYPES.CallExpression || call?.type === AST_NODE_TYPES.NewExpression) &&
    (call.arguments as readonly TSESTree.Node[]).includes(object as TSESTree.Node);
}

/** `<owner>.<name>(…)` calls in `scope` on the same object as `owner`. */
function ownerMethodCalls(
  sourceCode: Services,
  owner: TSESTree.Expression,
  names: readonly string[],
  scope: TSESTree.Node,
): TSESTree.CallExpression[] {
  const found: TSESTree.CallExpression[] = [];
  for (const token of sourceCode.getTokens(scope)) {
    if (token.type !== 'Identifier' || !names.includes(token.value)) continue;
    // One descent to the name, where `getNodeByRangeIndex` runs ESLint's traverser over the file.
    const call = candidateCall(nodeAtIndex(sourceCode.ast, token.range[0], sourceCode.visitorKeys));
    if (!call) continue;
    const callee = skipTransparent(call.callee);
    if (callee.type === AST_NODE_TYPES.MemberExpression && sameObject(sourceCode, callee.object, owner)) found.push(call);
  }
  return found;
}

/** The module's `unlock(file)` (or `unlockSync(file)`) with the same file argument text as the lock's. */
function moduleUnlockCalls(
  sourceCode: Services,
  lockCall: TSESTree.CallExpression,
  scope: TSESTree.Node,
  fileLock: { module: string; unlock: readonly string[] },
): TSESTree.CallExpression[] {
  const file = lockCall.arguments[0];
  if (!file) return [];
  const fileText = sourceCode.getText(file);
  const found: TSESTree.CallExpression[] = [];
  for (const token of sourceCode.getTokens(scope)) {
    if (token.type !== 'Identifier' || !fileLock.unlock.includes(token.value)) continue;
    const call = candidateCall(nodeAtIndex(sourceCode.ast, token.range[0], sourceCode.visitorKeys));
    if (!call || call.range[0] < lockCall.range[1]) continue;
    const arg = call.arguments[0];
    if (arg && sourceCode.getText(arg) === fileText && refMatches(resolveReference(sourceCode, call.callee), fileLock.module, token.value)) {
      found.push(call);
    }
  }
  return found;
}

/** Same object by text, and for identifiers the same variable: `this.lock`, `lock`, `deps.pool`. */
function sameObject(sourceCode: Services, a: TSESTree.Node, b: TSESTree.Node): boolean {
  const left = skipTransparent(a);
  const right = skipTransparent(b);
  if (sourceCode.getText(left) !== sourceCode.getText(right)) return false;
  const rootA = rootIdentifier(left);
  const rootB = rootIdentifier(right);
  if (!rootA || !rootB) return rootA === rootB;
  return findVariable(sourceCode, rootA) === findVariable(sourceCode, rootB);
}

function rootIdentifier(node: TSESTree.Node): TSESTree.Identifier | null {
  let current = node;
  while (current.type === AST_NODE_TYPES.MemberExpression) current = skipTransparent(current.object);
  return current.type === AST_NODE_TYPES.Identifier ? current : null;
}
