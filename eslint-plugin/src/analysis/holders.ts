/**
 * What a region holds, as the sleep rule names it: the permit's noun, the unit its capacity counts,
 * the call that took it and how many holders it allows. Plain data from a permit callback call
 * (`limit(fn)`) or a manual acquisition (`await sem.acquire()`).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { Acquisition } from './locks';
import type { PermitCall } from './permits';
import { capacityOf } from './permits';
import { getConstruction } from './construction';

export interface Holder {
  noun: string;
  unit: string;
  taker: string;
  at: TSESTree.Node;
  capacity: number | null;
  permitCall: PermitCall | null;
}

const LOCK_KINDS: ReadonlySet<string> = new Set(['mutex', 'keyedLock', 'webLock']);

export function callbackHolder(sourceCode: Readonly<TSESLint.SourceCode>, permit: PermitCall): Holder {
  const lock = LOCK_KINDS.has(permit.kind);
  const pooled = permit.kind === 'genericPool';
  return {
    noun: lock ? 'lock' : pooled ? 'pooled resource' : 'permit',
    unit: permit.kind === 'semaphore' ? 'permits' : pooled ? 'pooled resources' : 'slots',
    // `pool\n  .use(...)`: a chain broken over lines reads as one.
    taker: `${shortText(sourceCode.getText(permit.call.callee).replace(/\s*\n\s*/g, ''))}(...)`,
    at: permit.call,
    capacity: permit.capacity,
    permitCall: permit,
  };
}

export function manualHolder(sourceCode: Readonly<TSESLint.SourceCode>, acquisition: Acquisition): Holder {
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
    case 'transaction':
      noun = 'open transaction';
      unit = 'pool connections';
      break;
  }
  return { noun, unit, taker: shortText(acquisition.acquireText), at: acquisition.acquireCall, capacity, permitCall: null };
}

/** Source text for a message, on one line and cut at the first argument list when long. */
export function shortText(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  if (flat.length <= 48) return flat;
  const open = flat.indexOf('(');
  return open > 0 && open <= 40 ? `${flat.slice(0, open)}(...)` : `${flat.slice(0, 45)}...`;
}
