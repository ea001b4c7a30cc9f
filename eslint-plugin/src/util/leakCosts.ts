import type { AcquisitionKind } from '../analysis';

/**
 * Where a leak happens, for what it costs: long-lived code while it serves or at startup (once
 * per start, so a pool loses a connection rather than running dry), or one-shot code whose run
 * goes on after the leak (a path that never releases, a batch that catches per item) or ends
 * with the failure that leaks (strict only: the process takes its in-process resources with it).
 * Text linted without a file is worded as long-lived code, by its phase.
 */
export type LeakContext = 'serving' | 'startup' | 'oneShotGoesOn' | 'oneShotEnds';

const SERVING: Readonly<Record<AcquisitionKind, string>> = {
  lock: 'the lock stays held and every later caller waits for it forever',
  permit: 'the permit is lost, and each loss shrinks the capacity until nothing runs',
  dbClient: 'the connection never goes back to the pool, which runs dry under load',
  pooledResource: 'the resource never goes back to the pool, which runs dry under load',
  fileLock: 'the lock file stays and other processes wait until it goes stale',
  distributedLock: 'the key stays locked for every instance until its TTL runs out',
  transaction: 'the transaction stays open on its pooled connection, holding its row locks, and the pool runs dry under load',
  connection: 'it stays open on the database server, and each leak leaves one more open until the server refuses new connections',
};

const STARTUP: Readonly<Record<AcquisitionKind, string>> = {
  ...SERVING,
  permit: 'the permit is lost for as long as the process runs, and each leak at startup leaves one slot fewer for the work it serves',
  dbClient: 'the connection never goes back to the pool, and each leak at startup leaves one connection fewer for the requests the process serves, for as long as it runs',
  pooledResource: 'the resource never goes back to the pool, and each leak at startup leaves one fewer for the requests the process serves, for as long as it runs',
  transaction: 'the transaction stays open on its pooled connection, holding its row locks, and each leak at startup leaves one connection fewer for the requests the process serves',
  connection: 'it stays open on the database server for as long as the process runs',
};

const ONE_SHOT_KEY = 'the key stays locked for every process that takes it, the next run of this script included, until its TTL runs out';

const ONE_SHOT_GOES_ON: Readonly<Record<AcquisitionKind, string>> = {
  ...SERVING,
  lock: 'the lock stays held, every later step of this script that takes it waits forever, and the script can end without finishing that work',
  permit: 'the permit is lost, and each loss shrinks the capacity until the rest of the script cannot run',
  dbClient: 'the connection never goes back to the pool, and each leak takes one more until the pool runs dry and the rest of the script waits for a connection',
  pooledResource: 'the resource never goes back to the pool, and each leak takes one more until the pool runs dry and the rest of the script waits for one',
  distributedLock: ONE_SHOT_KEY,
  transaction: 'the transaction stays open, holding its row locks and a connection, and each leak takes one more until the rest of the script waits for a connection or a lock',
  connection: 'it stays open on the database server, each leak leaves one more, and open connections keep the script from exiting',
};

const ONE_SHOT_ENDS: Readonly<Record<AcquisitionKind, string>> = {
  ...SERVING,
  lock: 'the lock stays held for the rest of the run, and work of this script still in flight that takes it waits until the script exits',
  permit: 'the permit is lost for the rest of the run, and work of this script still in flight gets one slot fewer',
  dbClient: 'the connection stays checked out for the rest of the run, work of this script still in flight gets one connection fewer, and the open connection can keep the script from exiting',
  pooledResource: 'the resource stays checked out for the rest of the run, and work of this script still in flight gets one fewer',
  distributedLock: ONE_SHOT_KEY,
  transaction: 'the transaction stays open for the rest of the run, holding its row locks, and the open connection can keep the script from exiting',
  connection: 'it stays open for the rest of the run and can keep the script from exiting',
};

const COSTS: Readonly<Record<LeakContext, Readonly<Record<AcquisitionKind, string>>>> = {
  serving: SERVING,
  startup: STARTUP,
  oneShotGoesOn: ONE_SHOT_GOES_ON,
  oneShotEnds: ONE_SHOT_ENDS,
};

/** A pair declared in the `resources` setting or option, or seen in use as `x.release(r)`: nothing more is known. */
const SETTING_COST = 'it is never given back, and whoever needs it next waits forever';

/** What a leak costs at run time, per kind of resource and where it happens. */
export function leakCost(kind: AcquisitionKind | 'generic', where: LeakContext): string {
  return kind === 'generic' ? SETTING_COST : COSTS[where][kind];
}
