/**
 * The libraries the rules know by construction: which export builds which kind of concurrency
 * object. Rules ask `kind`, never a library name, so a new library is one line here.
 */
export type ConstructionKind =
  /** async-mutex `Mutex`, await-lock: one holder at a time, acquire/release by hand or `runExclusive`. */
  | 'mutex'
  /** async-mutex `Semaphore`, async-sema `Sema`: N permits. */
  | 'semaphore'
  /** p-limit: `limit(fn)` runs `fn` holding one of N slots. */
  | 'limiter'
  /** p-queue: `queue.add(fn)` runs `fn` holding one of N slots. */
  | 'queue'
  /** bottleneck: `schedule(fn)` / `wrap(fn)`. */
  | 'bottleneck'
  /** async-lock: `lock.acquire(key, fn)`. */
  | 'keyedLock'
  /** pg `Pool`, mysql2 `createPool`: `connect()` / `getConnection()` lend a client. */
  | 'dbPool'
  /** generic-pool `createPool`: `acquire()` lends a resource, `release(res)` returns it. */
  | 'genericPool'
  /**
   * pg `Client`, mongodb `MongoClient`: a client of its own, not lent by a pool. `connect()` opens
   * its connection to the server and only `end()` / `close()` closes it.
   */
  | 'dbConnection'
  /** redlock: `acquire(keys, ttl)` returns a lock with `release()`. */
  | 'redlock';

export interface CatalogEntry {
  module: string;
  /** Export name; 'default' for the default export / module.exports. */
  export: string;
  kind: ConstructionKind;
}

export const CONSTRUCTORS: readonly CatalogEntry[] = [
  { module: 'async-mutex', export: 'Mutex', kind: 'mutex' },
  { module: 'async-mutex', export: 'Semaphore', kind: 'semaphore' },
  { module: 'await-lock', export: 'default', kind: 'mutex' },
  { module: 'await-lock', export: 'AwaitLock', kind: 'mutex' },
  { module: 'async-sema', export: 'Sema', kind: 'semaphore' },
  { module: 'p-limit', export: 'default', kind: 'limiter' },
  { module: 'p-limit', export: 'pLimit', kind: 'limiter' },
  { module: 'p-queue', export: 'default', kind: 'queue' },
  { module: 'p-queue', export: 'PQueue', kind: 'queue' },
  { module: 'bottleneck', export: 'default', kind: 'bottleneck' },
  { module: 'async-lock', export: 'default', kind: 'keyedLock' },
  { module: 'pg', export: 'Pool', kind: 'dbPool' },
  { module: 'pg', export: 'Client', kind: 'dbConnection' },
  { module: 'mongodb', export: 'MongoClient', kind: 'dbConnection' },
  { module: 'mysql2/promise', export: 'createPool', kind: 'dbPool' },
  { module: 'mysql2', export: 'createPool', kind: 'dbPool' },
  { module: 'generic-pool', export: 'createPool', kind: 'genericPool' },
  { module: 'generic-pool', export: 'Pool', kind: 'genericPool' },
  { module: 'redlock', export: 'default', kind: 'redlock' },
  { module: 'redlock', export: 'Redlock', kind: 'redlock' },
];

/** Functions that return their first argument with extra behaviour: the kind passes through. */
export const WRAPPERS: readonly { module: string; export: string }[] = [
  { module: 'async-mutex', export: 'withTimeout' },
  { module: 'async-mutex', export: 'tryAcquire' },
];

/**
 * Type names that identify a kind when a value is only annotated (a constructor parameter, an
 * injected dependency): `constructor(private readonly lock: Mutex)`. Also used in typed mode.
 */
export const TYPE_NAMES: readonly CatalogEntry[] = [
  { module: 'async-mutex', export: 'Mutex', kind: 'mutex' },
  { module: 'async-mutex', export: 'MutexInterface', kind: 'mutex' },
  { module: 'async-mutex', export: 'Semaphore', kind: 'semaphore' },
  { module: 'async-mutex', export: 'SemaphoreInterface', kind: 'semaphore' },
  { module: 'await-lock', export: 'default', kind: 'mutex' },
  { module: 'async-sema', export: 'Sema', kind: 'semaphore' },
  { module: 'p-limit', export: 'LimitFunction', kind: 'limiter' },
  { module: 'p-limit', export: 'Limit', kind: 'limiter' },
  { module: 'p-queue', export: 'default', kind: 'queue' },
  { module: 'bottleneck', export: 'default', kind: 'bottleneck' },
  { module: 'async-lock', export: 'default', kind: 'keyedLock' },
  { module: 'pg', export: 'Pool', kind: 'dbPool' },
  { module: 'mysql2/promise', export: 'Pool', kind: 'dbPool' },
  { module: 'generic-pool', export: 'Pool', kind: 'genericPool' },
  { module: 'redlock', export: 'default', kind: 'redlock' },
];

/**
 * Library functions that give back the resource passed at `argument`: after the call the caller
 * no longer holds it, whether the call succeeds or fails. `@evershop/postgres-query-builder`'s
 * `commit(connection)` and `rollback(connection)` end the transaction and call
 * `connection.release()` (a failed `ROLLBACK` releases with the error).
 */
export const RELEASING_FUNCTIONS: readonly { module: string; export: string; argument: number }[] = [
  { module: '@evershop/postgres-query-builder', export: 'commit', argument: 0 },
  { module: '@evershop/postgres-query-builder', export: 'rollback', argument: 0 },
];

/**
 * Library functions that open a connection of its own and resolve to it, closed only by one of
 * `close` on the result: mysql2's promise API and mariadb `createConnection(config)`, mongodb's
 * static `MongoClient.connect(url)`. Not a pool's loan: nothing gives it back but that call.
 */
export const CONNECTION_OPENERS: readonly { module: string; path: readonly string[]; close: readonly string[] }[] = [
  { module: 'mysql2/promise', path: ['createConnection'], close: ['end', 'destroy'] },
  { module: 'mariadb', path: ['createConnection'], close: ['end', 'destroy'] },
  { module: 'mongodb', path: ['MongoClient', 'connect'], close: ['close'] },
];

/** What closes a catalogued client's own connection, per module: pg `client.end()`, mongodb `client.close()`. */
export const CONNECTION_CLOSERS: Readonly<Record<string, readonly string[]>> = {
  pg: ['end'],
  mongodb: ['close'],
};
