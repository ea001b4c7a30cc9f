import noBlockingInAsync from './no-blocking-in-async';
import noOrphanedPromise from './no-orphaned-promise';
import noSleepHoldingPermit from './no-sleep-holding-permit';
import noUnboundedFanOut from './no-unbounded-fan-out';
import releaseInFinally from './release-in-finally';

export const rules = {
  'release-in-finally': releaseInFinally,
  'no-sleep-holding-permit': noSleepHoldingPermit,
  'no-blocking-in-async': noBlockingInAsync,
  'no-orphaned-promise': noOrphanedPromise,
  'no-unbounded-fan-out': noUnboundedFanOut,
};

export type RuleName = keyof typeof rules;
