// The language server's collection between lints (server/src/idleCollector.ts): a scheduled one
// runs two young-generation collections once the delay passes; a cancelled one runs none.
import * as assert from 'node:assert/strict';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { IdleCollector } from '../../server/src/idleCollector';

/** Young-generation collections that start while `during` runs and for `settleMs` after. */
async function scavengesWhile(during: () => void, settleMs: number): Promise<number> {
  const starts: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) starts.push(entry.startTime);
  });
  observer.observe({ entryTypes: ['gc'] });
  const from = performance.now();
  during();
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  // Entries reach observers a turn after the collection.
  await new Promise((resolve) => setImmediate(resolve));
  observer.disconnect();
  return starts.filter((t) => t >= from).length;
}

describe('idle collector', () => {
  it('scavenges twice after the delay when scheduled', async () => {
    const idle = new IdleCollector();
    assert.ok((await scavengesWhile(() => idle.schedule(), 200)) >= 2);
  });

  // V8 also scavenges on its own whenever the young generation fills, so what a cancel leaves
  // out is counted on a collection that counts its calls, not on V8's.
  it('does nothing when cancelled before the delay, and collects twice when not', async () => {
    let calls = 0;
    const counting = (): void => {
      calls++;
    };
    const idle = new IdleCollector(() => counting);
    idle.schedule();
    idle.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(calls, 0);
    idle.schedule();
    idle.schedule();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(calls, 2, 'a second schedule moves the one collection later');
  });
});
