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

  it('does nothing when cancelled before the delay', async () => {
    const idle = new IdleCollector();
    const count = await scavengesWhile(() => {
      idle.schedule();
      idle.cancel();
    }, 200);
    assert.ok(count < 2, `${count} scavenges after a cancelled collection`);
  });
});
