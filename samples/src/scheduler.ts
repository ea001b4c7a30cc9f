// Scheduler: every few minutes, queue a summary for each ticket that changed since its last one.
// `enqueueSummary` lives in jobs.ts, so without type information this file cannot tell that it
// returns a promise; with type information (recommended-type-checked) it can.
import { enqueueSummary, staleTicketIds } from './jobs.js';

const BATCH = 200;

// Hazard (found with type information only): the INSERTs are dropped. The run reports success
// before any job is written, and a failed INSERT is an unhandled rejection that ends the process.
export async function scheduleSummaries(): Promise<number> {
  const ids = await staleTicketIds(BATCH);
  for (const id of ids) {
    enqueueSummary(id);
  }
  return ids.length;
}

// Corrected: each job row is written before the run counts it.
export async function scheduleSummariesAwaited(): Promise<number> {
  const ids = await staleTicketIds(BATCH);
  for (const id of ids) {
    await enqueueSummary(id);
  }
  return ids.length;
}
