import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { ModuleRef } from './imports';
import { constInit, findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { normalizeModule, refMatches, resolveReference } from './imports';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * The non-blocking form of a blocking API, used by suggestions.
 * `promise`: `await twin(args)`; `promisify`: `await promisify(twin)(args)`.
 */
export interface AsyncTwin {
  kind: 'promise' | 'promisify';
  /** Module to import the twin from, as written in a new import (`node:fs/promises`). */
  module: string;
  export: string;
  /**
   * How the awaited value maps back to what the sync call returned: `stdout` for exec/execFile,
   * `exists` for a boolean built from a promise that rejects when the path is missing.
   */
  result?: 'stdout' | 'exists';
  /** When the sync call came from a namespace of this module, call the twin on it instead: `fs.promises.readFile`. */
  namespacePath?: readonly string[];
}

export interface BlockingApi {
  /** Canonical name for messages: `fs.readFileSync`, `child_process.execSync`, `Atomics.wait`. */
  name: string;
  twin: AsyncTwin | null;
  /** `crypto.randomBytes` and `randomFillSync` block only for large sizes. */
  sized?: 'randomBytes' | 'randomFillSync';
  /**
   * What the call costs when it is not plain I/O: `metadata` asks or changes one path's
   * metadata (a single syscall of microseconds); `remove` is `rmdirSync`, one syscall on an
   * empty directory unless its options say `recursive`; `cpu` holds the thread for milliseconds of computation
   * or a whole child process whatever the disk does (key derivation and key or prime
   * generation, password hashing, synchronous compression, child processes); `cheap` is CPU
   * work of microseconds that no other work notices once (`hkdfSync`, bcrypt's `genSaltSync`,
   * which only draws a random salt). Absent: content, listings, and `randomBytes`, judged by size.
   */
  kind?: 'metadata' | 'remove' | 'cpu' | 'cheap';
}

export interface ModuleExportEntry {
  module: string;
  export?: string;
  method?: string;
}

export interface BlockingOptions {
  /** Extra entries that count as blocking. */
  blockingCalls: readonly ModuleExportEntry[];
  /** Entries never reported. */
  allow: readonly ModuleExportEntry[];
  /** Bytes above which a synchronous `randomBytes` / `randomFillSync` counts as blocking. */
  randomBytesThreshold: number;
  /** Helper chains pass over a single metadata call (`isSingleMetadataCall`), as `recommended` does. */
  quietMetadata?: boolean;
}

export const DEFAULT_RANDOM_BYTES_THRESHOLD = 65536;

export const DEFAULT_BLOCKING_OPTIONS: BlockingOptions = {
  blockingCalls: [],
  allow: [],
  randomBytesThreshold: DEFAULT_RANDOM_BYTES_THRESHOLD,
};

/** `fs.*Sync` whose `fs/promises` twin returns the same value. fd-based calls (`openSync`, `readSync`, …) have none. */
const FS_PROMISE_TWINS: ReadonlySet<string> = new Set([
  'readFile', 'writeFile', 'appendFile', 'readdir', 'stat', 'lstat', 'mkdir', 'mkdtemp', 'rm', 'rmdir',
  'unlink', 'copyFile', 'cp', 'rename', 'access', 'chmod', 'chown', 'lchown', 'realpath', 'readlink',
  'symlink', 'link', 'truncate', 'utimes', 'lutimes', 'opendir', 'statfs',
]);

/**
 * fs calls that ask or change the metadata of one path, each one syscall and no file content:
 * the async forms queue on the thread pool (threadPoolWork), the sync forms cost microseconds.
 */
export const FS_METADATA_CALLS: readonly string[] = [
  'stat', 'lstat', 'access', 'exists', 'unlink', 'mkdir', 'rename', 'chmod', 'chown', 'lchown',
  'utimes', 'lutimes', 'realpath', 'readlink', 'symlink', 'link', 'pathExists', 'ensureDir', 'mkdirp',
];

/**
 * Removing a file's last link frees its data inside the call: the filesystem releases every block
 * of the file before `unlinkSync` returns, work that grows with the file (an upload, a download, a
 * rendered image), unlike a question about one inode. A plain `rmSync` removes a file the same way
 * (without `recursive` it refuses a directory). Their async forms stay metadata for the thread
 * pool: they hold no descriptor.
 */
const FS_SYNC_CONTENT_REMOVALS: ReadonlySet<string> = new Set(['unlink', 'rm']);

/** Sync-only metadata calls: `FS_METADATA_CALLS` but file removals, with descriptor metadata and fs-extra aliases. */
const FS_SYNC_METADATA: ReadonlySet<string> = new Set([
  ...FS_METADATA_CALLS.filter((name) => !FS_SYNC_CONTENT_REMOVALS.has(name)), 'fstat', 'statfs', 'lchmod', 'fchmod', 'fchown', 'futimes', 'mkdirs',
]);

/** fs-extra's own helpers: called without a callback they return a promise of the sync result. */
const FS_EXTRA_TWINS: ReadonlySet<string> = new Set([
  'readJson', 'readJSON', 'writeJson', 'writeJSON', 'outputFile', 'outputJson', 'outputJSON', 'ensureDir',
  'ensureFile', 'ensureLink', 'ensureSymlink', 'emptyDir', 'copy', 'move', 'remove', 'mkdirs', 'mkdirp',
  'createFile',
]);

const CHILD_PROCESS: Readonly<Record<string, AsyncTwin | null>> = {
  execSync: { kind: 'promisify', module: 'node:child_process', export: 'exec', result: 'stdout' },
  execFileSync: { kind: 'promisify', module: 'node:child_process', export: 'execFile', result: 'stdout' },
  // `spawnSync` returns status, signal and both streams; no promise form returns that shape.
  spawnSync: null,
};

const CRYPTO_TWINS: Readonly<Record<string, string>> = {
  pbkdf2Sync: 'pbkdf2',
  scryptSync: 'scrypt',
  hkdfSync: 'hkdf',
  generateKeyPairSync: 'generateKeyPair',
  generatePrimeSync: 'generatePrime',
  checkPrimeSync: 'checkPrime',
  randomFillSync: 'randomFill',
};

/** Key derivation and key or prime generation: tens of milliseconds of CPU each. */
const CRYPTO_CPU: ReadonlySet<string> = new Set(['pbkdf2Sync', 'scryptSync', 'generateKeyPairSync', 'generatePrimeSync', 'checkPrimeSync']);

const ZLIB_SYNC: readonly string[] = [
  'gzipSync', 'gunzipSync', 'deflateSync', 'inflateSync', 'deflateRawSync', 'inflateRawSync', 'unzipSync',
  'brotliCompressSync', 'brotliDecompressSync', 'zstdCompressSync', 'zstdDecompressSync',
];

const BCRYPT_SYNC: readonly string[] = ['hashSync', 'compareSync', 'genSaltSync'];

/** execa: v6+ named exports, v5 methods on the default export, and the `$` template tag. */
const EXECA_SYNC: readonly (readonly string[])[] = [
  ['execaSync'], ['execaCommandSync'], ['sync'], ['commandSync'], ['$', 'sync'], ['$', 's'],
];

/** glob v9+ (`globSync`, `glob.sync`) and fast-glob (`fg.sync`, `fg.globSync`). */
const GLOB_SYNC: readonly (readonly string[])[] = [['globSync'], ['sync'], ['glob', 'sync'], ['glob', 'globSync']];
const FAST_GLOB_TWINS: Readonly<Record<string, string>> = { sync: 'async', globSync: 'glob' };

function promisified(module: string, name: string): AsyncTwin {
  return { kind: 'promisify', module: `node:${module}`, export: name };
}

/** The catalogue entry for a module reference, or null when the export is not known to block. */
export function catalogueEntry(ref: ModuleRef): BlockingApi | null {
  const { module, path } = ref;
  const last = path[path.length - 1];
  if (last === undefined) return null;
  const name = `${module}.${path.join('.')}`;
  switch (module) {
    case 'fs':
    case 'fs-extra': {
      const isSyncExport = path.length === 1 && last.endsWith('Sync') && last !== 'Sync';
      const isNativeRealpath = path.length === 2 && path[0] === 'realpathSync' && last === 'native';
      if (!isSyncExport && !isNativeRealpath) return null;
      const base = isSyncExport ? last.slice(0, -4) : 'realpath';
      const kind = FS_SYNC_METADATA.has(base) ? 'metadata' : base === 'rmdir' ? 'remove' : null;
      return { name, twin: isSyncExport ? fsTwin(module, base) : null, ...(kind ? { kind } : {}) };
    }
    case 'child_process': {
      if (path.length !== 1 || !(last in CHILD_PROCESS)) return null;
      return { name, twin: CHILD_PROCESS[last] ?? null, kind: 'cpu' };
    }
    case 'execa':
      return EXECA_SYNC.some((p) => samePath(p, path)) ? { name, twin: null, kind: 'cpu' } : null;
    case 'crypto': {
      if (path.length !== 1) return null;
      if (last === 'randomBytes') return { name, twin: promisified('crypto', 'randomBytes'), sized: 'randomBytes' };
      const twin = CRYPTO_TWINS[last];
      if (twin === undefined) return null;
      return {
        name,
        twin: promisified('crypto', twin),
        ...(last === 'randomFillSync' ? { sized: 'randomFillSync' as const } : {}),
        ...(CRYPTO_CPU.has(last) ? { kind: 'cpu' as const } : last === 'hkdfSync' ? { kind: 'cheap' as const } : {}),
      };
    }
    case 'zlib':
      return path.length === 1 && ZLIB_SYNC.includes(last)
        ? { name, twin: promisified('zlib', last.slice(0, -4)), kind: 'cpu' }
        : null;
    case 'bcrypt':
    case 'bcryptjs':
      return path.length === 1 && BCRYPT_SYNC.includes(last)
        ? { name, twin: { kind: 'promise', module, export: last.slice(0, -4), namespacePath: [] }, kind: last === 'genSaltSync' ? 'cheap' : 'cpu' }
        : null;
    case 'glob':
      if (!GLOB_SYNC.some((p) => samePath(p, path))) return null;
      // `glob.sync` exists in callback-era versions too, where `glob()` returns no promise.
      return { name, twin: samePath(path, ['globSync']) ? { kind: 'promise', module, export: 'glob' } : null };
    case 'fast-glob': {
      const twin = path.length === 1 ? FAST_GLOB_TWINS[last] : undefined;
      return twin ? { name, twin: { kind: 'promise', module, export: twin, namespacePath: [] } } : null;
    }
    default:
      return null;
  }
}

function fsTwin(module: string, base: string): AsyncTwin | null {
  if (module === 'fs-extra') {
    if (base === 'exists') return { kind: 'promise', module, export: 'pathExists', namespacePath: [] };
    if (FS_PROMISE_TWINS.has(base) || FS_EXTRA_TWINS.has(base)) {
      return { kind: 'promise', module, export: base, namespacePath: [] };
    }
    return null;
  }
  if (base === 'exists') {
    return { kind: 'promise', module: 'node:fs/promises', export: 'access', result: 'exists', namespacePath: ['promises'] };
  }
  return FS_PROMISE_TWINS.has(base)
    ? { kind: 'promise', module: 'node:fs/promises', export: base, namespacePath: ['promises'] }
    : null;
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

function entryMatches(ref: ModuleRef, entry: ModuleExportEntry): boolean {
  const want = normalizeModule(entry.module);
  if (ref.module !== want.module) return false;
  if (entry.export !== undefined) return refMatches(ref, entry.module, ...entry.export.split('.'));
  // `method` alone: that method on anything the module exports (`legacy.loadSync()`, `legacy.cfg.loadSync()`).
  return entry.method !== undefined && ref.path[ref.path.length - 1] === entry.method;
}

/** What a blocking call looks like at its call site. */
export interface BlockingCall {
  call: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  api: BlockingApi;
  ref: ModuleRef | null;
}

/**
 * Is `call` a call to a catalogued (or configured) blocking API? Resolved through imports and
 * `require` only: a `*Sync` method on an object that does not come from a known module is not one.
 */
export function matchBlockingCall(
  sourceCode: Services,
  call: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  options: BlockingOptions = DEFAULT_BLOCKING_OPTIONS,
): BlockingCall | null {
  // execa tags templates with `$.sync` or with the result of `$.s(options)`.
  let callee = skipTransparent(call.type === AST_NODE_TYPES.CallExpression ? call.callee : call.tag);
  if (call.type === AST_NODE_TYPES.TaggedTemplateExpression && callee.type === AST_NODE_TYPES.CallExpression) {
    callee = skipTransparent(callee.callee);
  }
  if (callee.type !== AST_NODE_TYPES.Identifier && callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  if (isAtomicsWait(sourceCode, callee)) {
    return options.allow.some((e) => e.module === 'Atomics' || e.export === 'Atomics.wait')
      ? null
      : { call, api: { name: 'Atomics.wait', twin: null }, ref: null };
  }
  const ref = resolveReference(sourceCode, callee);
  if (!ref) return null;
  if (options.allow.some((e) => entryMatches(ref, e))) return null;
  const api = catalogueEntry(ref) ?? configuredEntry(ref, options);
  if (!api) return null;
  if (api.sized && (call.type !== AST_NODE_TYPES.CallExpression ||
    !exceedsThreshold(sourceCode, call, api.sized, options.randomBytesThreshold))) {
    return null;
  }
  return { call, api, ref };
}

/**
 * A cheap filter on the name a call is made by: false means the call cannot be a blocking one,
 * so it need not be resolved. Every catalogued export ends in `Sync` or is one of a few names.
 */
export function mayBeBlockingName(name: string | null, options: BlockingOptions = DEFAULT_BLOCKING_OPTIONS): boolean {
  if (name === null) return true;
  if (name.endsWith('Sync') || CATALOGUED_NAMES.has(name)) return true;
  return options.blockingCalls.some(
    (e) => e.method === name || e.export === 'default' || (e.export !== undefined && e.export.split('.').pop() === name),
  );
}

const CATALOGUED_NAMES: ReadonlySet<string> = new Set(['wait', 'randomBytes', 'sync', 's', 'native']);

function configuredEntry(ref: ModuleRef, options: BlockingOptions): BlockingApi | null {
  return options.blockingCalls.some((e) => entryMatches(ref, e))
    ? { name: `${ref.module}${ref.path.length > 0 ? '.' : ''}${ref.path.join('.')}`, twin: null }
    : null;
}

function isAtomicsWait(sourceCode: Services, callee: TSESTree.Node): boolean {
  if (callee.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(callee) !== 'wait') return false;
  return isGlobal(sourceCode, callee.object, 'Atomics');
}

/** `name` as written refers to the built-in global, not a local of the same name. */
function isGlobal(sourceCode: Services, node: TSESTree.Node, name: string): boolean {
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.MemberExpression) {
    // `globalThis.Atomics`
    return staticPropertyName(expr) === name && isGlobal(sourceCode, expr.object, 'globalThis');
  }
  if (expr.type !== AST_NODE_TYPES.Identifier || expr.name !== name) return false;
  const variable = findVariable(sourceCode, expr);
  return !variable || variable.defs.length === 0;
}

/**
 * `randomBytes(n)` with no callback, or `randomFillSync(buf[, offset[, size]])`, with a size
 * known statically and above the threshold. Unknown sizes are not reported.
 */
function exceedsThreshold(
  sourceCode: Services,
  call: TSESTree.CallExpression,
  kind: 'randomBytes' | 'randomFillSync',
  threshold: number,
): boolean {
  const args = call.arguments;
  if (kind === 'randomBytes') {
    // With a callback the work happens on the thread pool.
    if (args.length !== 1 || !args[0]) return false;
    const size = staticNumber(sourceCode, args[0], 0);
    return size !== null && size > threshold;
  }
  const explicit = args[2] ? staticNumber(sourceCode, args[2], 0) : null;
  if (explicit !== null) return explicit > threshold;
  const size = args[0] ? bufferSize(sourceCode, args[0], 0) : null;
  const offset = args[1] ? staticNumber(sourceCode, args[1], 0) : 0;
  return size !== null && offset !== null && size - offset > threshold;
}

/** The value of a numeric constant expression: literals, `+ - * /`, `**`, `<<` and `const` names bound to them. */
export function staticNumber(sourceCode: Services, node: TSESTree.Node, depth: number): number | null {
  if (depth > 6) return null;
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Literal) return typeof expr.value === 'number' ? expr.value : null;
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const init = constInit(sourceCode, expr);
    return init ? staticNumber(sourceCode, init, depth + 1) : null;
  }
  if (expr.type !== AST_NODE_TYPES.BinaryExpression || expr.left.type === AST_NODE_TYPES.PrivateIdentifier) return null;
  const left = staticNumber(sourceCode, expr.left, depth + 1);
  const right = staticNumber(sourceCode, expr.right, depth + 1);
  if (left === null || right === null) return null;
  switch (expr.operator) {
    case '+': return left + right;
    case '-': return left - right;
    case '*': return left * right;
    case '/': return left / right;
    case '**': return left ** right;
    case '<<': return left << right;
    default: return null;
  }
}

/** Size of `Buffer.alloc(n)`, `Buffer.allocUnsafe(n)`, `new Uint8Array(n)` (inline or through a `const`). */
function bufferSize(sourceCode: Services, node: TSESTree.Node, depth: number): number | null {
  if (depth > 3) return null;
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const init = constInit(sourceCode, expr);
    return init ? bufferSize(sourceCode, init, depth + 1) : null;
  }
  const arg = (expr.type === AST_NODE_TYPES.CallExpression || expr.type === AST_NODE_TYPES.NewExpression)
    ? expr.arguments[0]
    : undefined;
  if (!arg) return null;
  const callee = skipTransparent((expr as TSESTree.CallExpression | TSESTree.NewExpression).callee);
  if (expr.type === AST_NODE_TYPES.NewExpression) {
    const bytesPer = callee.type === AST_NODE_TYPES.Identifier ? TYPED_ARRAY_BYTES[callee.name] : undefined;
    const count = bytesPer === undefined ? null : staticNumber(sourceCode, arg, 0);
    return count === null || bytesPer === undefined ? null : count * bytesPer;
  }
  if (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'Buffer' &&
    ['alloc', 'allocUnsafe', 'allocUnsafeSlow'].includes(staticPropertyName(callee) ?? '')
  ) {
    return staticNumber(sourceCode, arg, 0);
  }
  return null;
}

const TYPED_ARRAY_BYTES: Readonly<Record<string, number>> = {
  Uint8Array: 1, Int8Array: 1, Uint8ClampedArray: 1, Uint16Array: 2, Int16Array: 2, Uint32Array: 4,
  Int32Array: 4, Float32Array: 4, Float64Array: 8, BigInt64Array: 8, BigUint64Array: 8,
};

export type WaitLoop = TSESTree.WhileStatement | TSESTree.DoWhileStatement | TSESTree.ForStatement;

export interface BusyWait {
  loop: WaitLoop;
  /** The clock read in the loop condition. */
  clock: TSESTree.Node;
  /** `Date.now()`, `performance.now()`, `process.hrtime()`. */
  clockName: string;
}

/**
 * A busy wait: a loop whose condition compares a clock reading against something, and which
 * never awaits or yields — it spins on the thread until the deadline passes. A loop that awaits
 * inside is a poll and is not one.
 */
export function busyWait(sourceCode: Services, loop: WaitLoop): BusyWait | null {
  if (!loop.test) return null;
  const clock = comparedClock(sourceCode, loop.test);
  if (!clock) return null;
  let yields = false;
  walk(loop, sourceCode.visitorKeys, (node) => {
    if (yields || (node !== loop && isFunctionNode(node))) return false;
    if (
      node.type === AST_NODE_TYPES.AwaitExpression ||
      node.type === AST_NODE_TYPES.YieldExpression ||
      (node.type === AST_NODE_TYPES.ForOfStatement && node.await)
    ) {
      yields = true;
      return false;
    }
    return true;
  });
  return yields ? null : { loop, clock: clock.node, clockName: clock.name };
}

const COMPARISONS: ReadonlySet<string> = new Set(['<', '<=', '>', '>=']);

function comparedClock(sourceCode: Services, test: TSESTree.Node): { node: TSESTree.Node; name: string } | null {
  const expr = skipTransparent(test);
  if (expr.type === AST_NODE_TYPES.LogicalExpression) {
    return comparedClock(sourceCode, expr.left) ?? comparedClock(sourceCode, expr.right);
  }
  if (expr.type !== AST_NODE_TYPES.BinaryExpression || !COMPARISONS.has(expr.operator)) return null;
  return findClock(sourceCode, expr.left, 0) ?? findClock(sourceCode, expr.right, 0);
}

/** A clock read inside arithmetic: `Date.now() - start`, `performance.now()`, `process.hrtime.bigint()`. */
function findClock(sourceCode: Services, node: TSESTree.Node, depth: number): { node: TSESTree.Node; name: string } | null {
  if (depth > 4) return null;
  const expr = skipTransparent(node);
  if (expr.type === AST_NODE_TYPES.BinaryExpression && expr.left.type !== AST_NODE_TYPES.PrivateIdentifier) {
    return findClock(sourceCode, expr.left, depth + 1) ?? findClock(sourceCode, expr.right, depth + 1);
  }
  if (expr.type === AST_NODE_TYPES.UnaryExpression) return findClock(sourceCode, expr.argument, depth + 1);
  if (expr.type === AST_NODE_TYPES.MemberExpression) return findClock(sourceCode, expr.object, depth + 1);
  if (expr.type !== AST_NODE_TYPES.CallExpression) return null;
  const name = clockName(sourceCode, skipTransparent(expr.callee));
  return name ? { node: expr, name } : null;
}

function clockName(sourceCode: Services, callee: TSESTree.Node): string | null {
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const prop = staticPropertyName(callee);
  const obj = skipTransparent(callee.object);
  if (prop === 'now' && isGlobal(sourceCode, obj, 'Date')) return 'Date.now()';
  if (prop === 'now' && (isGlobal(sourceCode, obj, 'performance') || refMatches(resolveReference(sourceCode, obj), 'perf_hooks', 'performance'))) {
    return 'performance.now()';
  }
  if (prop === 'hrtime' && (isGlobal(sourceCode, obj, 'process') || refMatches(resolveReference(sourceCode, obj), 'process'))) {
    return 'process.hrtime()';
  }
  if (prop === 'bigint' && obj.type === AST_NODE_TYPES.MemberExpression && clockName(sourceCode, obj) === 'process.hrtime()') {
    return 'process.hrtime.bigint()';
  }
  if ((prop === 'getTime' || prop === 'valueOf') && obj.type === AST_NODE_TYPES.NewExpression && obj.arguments.length === 0 &&
    isGlobal(sourceCode, obj.callee, 'Date')) {
    return 'new Date().getTime()';
  }
  return null;
}

/**
 * Cheap pre-check: does the file mention any clock a busy wait could spin on? A text search; a
 * word in a comment only costs the precise check, never a finding.
 */
export function mentionsClock(sourceCode: Services): boolean {
  const hit = clockMentionCache.get(sourceCode);
  if (hit !== undefined) return hit;
  const found = CLOCK_WORDS.test(sourceCode.text);
  clockMentionCache.set(sourceCode, found);
  return found;
}

const CLOCK_WORDS = /(?<![\w$])(?:now|hrtime|getTime)(?![\w$])/;
const clockMentionCache = new WeakMap<object, boolean>();

/** Modules whose imports can make a file's calls blocking: a cheap early exit for files that have none. */
export const BLOCKING_MODULES: ReadonlySet<string> = new Set([
  'fs', 'fs-extra', 'child_process', 'execa', 'crypto', 'zlib', 'bcrypt', 'bcryptjs', 'glob', 'fast-glob',
]);
