import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FileOutcome, LintJob, LinterSetup } from './lintFile';

/** What a worker is started with (plain data: it is cloned into the thread). */
export interface WorkerSetup {
  linter: LinterSetup;
  fix: { write: boolean; dryRun: boolean };
}

export type ToMain = { kind: 'outcome'; outcome: FileOutcome } | { kind: 'failed'; index: number; detail: string };

/**
 * Starts a worker: the second bundle next to the CLI's (esbuild.mjs builds both), or, when the
 * CLI itself runs from source under tsx (the tests), worker.ts through tsx's require hook: a
 * worker does not get the loader hooks `--import tsx` registered on the main thread.
 */
function startWorker(setup: WorkerSetup): Worker {
  if (path.extname(__filename) !== '.ts') return new Worker(path.join(__dirname, 'cli-worker.js'), { workerData: setup });
  const resolve = createRequire(__filename).resolve;
  const code = `require(${JSON.stringify(resolve('tsx/cjs'))});\nrequire(${JSON.stringify(path.join(__dirname, 'worker.ts'))});\n`;
  return new Worker(code, { eval: true, workerData: setup });
}
/** Files sent ahead to each worker, so it never waits for the main thread between two files. */
const IN_FLIGHT = 2;

/** How many worker threads to lint `fileCount` files on; 0 means on the main thread. */
export function workerCount(concurrency: 'auto' | 'off' | number, fileCount: number): number {
  const wanted = concurrency === 'off' ? 1 : concurrency === 'auto' ? os.availableParallelism() : concurrency;
  const count = Math.min(wanted, fileCount);
  return count > 1 ? count : 0;
}

/** Where each worker takes its next file from. */
export interface JobSource {
  readonly workers: number;
  next(worker: number): LintJob | undefined;
  /** Jobs a stopped worker had been sent but not finished, to be sent again. */
  giveBack(worker: number, jobs: readonly LintJob[]): void;
}

/** One queue for all workers, in file order: whoever is free takes the next file. */
export function sharedQueue(jobs: readonly LintJob[], workers: number): JobSource {
  const queue = [...jobs];
  return {
    workers,
    next: () => queue.shift(),
    giveBack: (_worker, back) => queue.unshift(...back),
  };
}

/**
 * Type-aware: a worker builds a TypeScript program for each tsconfig it meets, so files are
 * grouped by tsconfig and each group goes to as few workers as its size calls for (a group
 * holding half the files is split in two, one small group stays whole). Each worker's files stay
 * in file order.
 */
export function partitionedQueues(jobs: readonly LintJob[], workers: number, groupOf: (filePath: string) => string): JobSource {
  const groups = new Map<string, LintJob[]>();
  for (const job of jobs) {
    const key = groupOf(job.filePath);
    const group = groups.get(key);
    if (group) group.push(job);
    else groups.set(key, [job]);
  }
  const chunks: LintJob[][] = [];
  for (const group of groups.values()) {
    const parts = Math.min(group.length, Math.max(1, Math.round((group.length * workers) / jobs.length)));
    const size = Math.ceil(group.length / parts);
    for (let start = 0; start < group.length; start += size) chunks.push(group.slice(start, start + size));
  }
  // Largest first, each to the least loaded worker: near-even loads without splitting groups further.
  chunks.sort((a, b) => b.length - a.length || (a[0]?.index ?? 0) - (b[0]?.index ?? 0));
  const queues: LintJob[][] = Array.from({ length: Math.min(workers, chunks.length) }, () => []);
  for (const chunk of chunks) {
    const lightest = queues.reduce((best, queue) => (queue.length < best.length ? queue : best));
    lightest.push(...chunk);
  }
  for (const queue of queues) queue.sort((a, b) => a.index - b.index);
  return {
    workers: queues.length,
    next: (worker) => queues[worker]?.shift(),
    giveBack: (worker, back) => queues[worker]?.unshift(...back),
  };
}

/**
 * Lints every job of `source` on worker threads and hands each outcome to `onOutcome` as it
 * arrives (in no particular order). A throw from `onOutcome` stops every worker and rejects. A
 * worker that dies (a crash in native code, out of memory) costs only the file it was linting,
 * which is reported as an internal error; a fresh worker takes over its other files. A worker
 * dying before any file was finished means workers cannot run here: the run fails.
 */
export function runInWorkers(setup: WorkerSetup, source: JobSource, total: number, onOutcome: (outcome: FileOutcome) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let remaining = total;
    let linted = 0;
    let finished = false;
    const live = new Set<Worker>();
    const finish = (error?: unknown): void => {
      if (finished) return;
      finished = true;
      for (const worker of live) void worker.terminate();
      live.clear();
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    const settle = (outcome: FileOutcome): void => {
      try {
        onOutcome(outcome);
      } catch (error) {
        finish(error);
        return;
      }
      if (--remaining === 0) finish();
    };

    const start = (slot: number): void => {
      const worker = startWorker(setup);
      live.add(worker);
      const inFlight: LintJob[] = [];
      const feed = (): void => {
        while (inFlight.length < IN_FLIGHT) {
          const job = source.next(slot);
          if (!job) return;
          inFlight.push(job);
          worker.postMessage(job);
        }
      };
      worker.on('message', (message: ToMain) => {
        if (finished) return;
        if (message.kind === 'failed') {
          finish(new Error(message.detail));
          return;
        }
        inFlight.shift();
        linted++;
        settle(message.outcome);
        if (!finished) feed();
      });
      const stopped = (reason: string): void => {
        if (finished || !live.delete(worker)) return;
        void worker.terminate();
        // Before any file was done, by any worker: the thread itself cannot start here.
        if (linted === 0) {
          finish(new Error(`a lint worker stopped before linting a file: ${reason}`));
          return;
        }
        const [lost, ...rest] = inFlight;
        source.giveBack(slot, rest);
        if (lost) settle(lostOutcome(lost, reason));
        if (!finished) start(slot);
      };
      worker.on('error', (error) => stopped(error.stack ?? error.message));
      worker.on('exit', (code) => stopped(`it exited with code ${code}`));
      feed();
    };
    if (remaining === 0) finish();
    else for (let slot = 0; slot < source.workers; slot++) start(slot);
  });
}

function lostOutcome(job: LintJob, reason: string): FileOutcome {
  return {
    index: job.index,
    filePath: job.filePath,
    messages: [],
    fromCache: false,
    cacheHash: null,
    output: null,
    skipped: null,
    crashedRules: [],
    notices: [{ kind: 'internalError', filePath: job.filePath, detail: `the lint worker stopped: ${reason}` }],
    readError: null,
  };
}
