import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FileLinter, FileOutcome, LintJob, LinterSetup } from './lintFile';
import { emptyOutcome } from './lintFile';

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
/**
 * Files sent ahead to each worker, so it never waits for the main thread, which lints too and
 * takes outcomes only between two of its own files.
 */
const IN_FLIGHT = 4;
/**
 * `auto` starts another thread for every this many files at most: a thread costs about a second
 * of CPU to start (its own copy of the bundle, compiled and warmed up again), which a small run
 * never wins back.
 */
export const AUTO_FILES_PER_THREAD = 50;

/**
 * How many threads lint `fileCount` files, the main thread being one of them; 1 means the main
 * thread alone, as with `off`.
 */
export function threadCount(concurrency: 'auto' | 'off' | number, fileCount: number): number {
  if (concurrency === 'off') return 1;
  const cap = concurrency === 'auto' ? Math.ceil(fileCount / AUTO_FILES_PER_THREAD) : fileCount;
  const wanted = concurrency === 'auto' ? os.availableParallelism() : concurrency;
  return Math.max(1, Math.min(wanted, cap));
}

/** Where each lane (0: the main thread, 1…: the workers) takes its next file from. */
export interface JobSource {
  readonly lanes: number;
  next(lane: number): LintJob | undefined;
  /** Jobs a stopped worker had been sent but not finished, to be sent again. */
  giveBack(lane: number, jobs: readonly LintJob[]): void;
}

/**
 * One queue for all lanes, in file order: whoever is free takes the next few consecutive files.
 * Neighbouring files import the same modules, which each thread's project layer parses once, so
 * runs of neighbours keep that work from being done on every thread.
 */
export function sharedQueue(jobs: readonly LintJob[], lanes: number): JobSource {
  const queue = [...jobs];
  const run = Math.max(1, Math.min(16, Math.floor(jobs.length / (lanes * 16))));
  const taken: LintJob[][] = Array.from({ length: lanes }, () => []);
  return {
    lanes,
    next: (lane) => {
      const own = taken[lane] as LintJob[];
      if (own.length === 0) own.push(...queue.splice(0, run));
      return own.shift();
    },
    giveBack: (_lane, back) => queue.unshift(...back),
  };
}

/**
 * Type-aware: a thread builds a TypeScript program for each tsconfig it meets, so files are
 * grouped by tsconfig and each group goes to as few lanes as its size calls for (a group holding
 * half the files is split in two, one small group stays whole). Each lane's files stay in file order.
 */
export function partitionedQueues(jobs: readonly LintJob[], lanes: number, groupOf: (filePath: string) => string): JobSource {
  const groups = new Map<string, LintJob[]>();
  for (const job of jobs) {
    const key = groupOf(job.filePath);
    const group = groups.get(key);
    if (group) group.push(job);
    else groups.set(key, [job]);
  }
  const chunks: LintJob[][] = [];
  for (const group of groups.values()) {
    const parts = Math.min(group.length, Math.max(1, Math.round((group.length * lanes) / jobs.length)));
    const size = Math.ceil(group.length / parts);
    for (let start = 0; start < group.length; start += size) chunks.push(group.slice(start, start + size));
  }
  // Largest first, each to the least loaded lane: near-even loads without splitting groups further.
  chunks.sort((a, b) => b.length - a.length || (a[0]?.index ?? 0) - (b[0]?.index ?? 0));
  const queues: LintJob[][] = Array.from({ length: Math.min(lanes, chunks.length) }, () => []);
  for (const chunk of chunks) {
    const lightest = queues.reduce((best, queue) => (queue.length < best.length ? queue : best));
    lightest.push(...chunk);
  }
  for (const queue of queues) queue.sort((a, b) => a.index - b.index);
  return {
    lanes: queues.length,
    next: (lane) => queues[lane]?.shift(),
    giveBack: (lane, back) => queues[lane]?.unshift(...back),
  };
}

/**
 * Lints every job of `source`: lane 0 on the main thread with `local`, the other lanes on worker
 * threads. Each outcome goes to `onOutcome` as it arrives (in no particular order); a throw from
 * it stops every worker and rejects. A worker that dies (a crash in native code, out of memory)
 * costs only the file it was linting, which is reported as an internal error; a fresh worker
 * takes over its other files. A worker dying before any worker finished a file means workers
 * cannot run here: the run fails.
 */
export function runOnThreads(local: FileLinter, setup: WorkerSetup, source: JobSource, total: number, onOutcome: (outcome: FileOutcome) => void): Promise<void> {
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

    const start = (lane: number): void => {
      const worker = startWorker(setup);
      live.add(worker);
      const inFlight: LintJob[] = [];
      const feed = (): void => {
        while (inFlight.length < IN_FLIGHT) {
          const job = source.next(lane);
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
        if (linted === 0) {
          finish(new Error(`a lint worker stopped before linting a file: ${reason}`));
          return;
        }
        const [lost, ...rest] = inFlight;
        source.giveBack(lane, rest);
        if (lost) settle(lostOutcome(lost, reason));
        if (!finished) start(lane);
      };
      worker.on('error', (error) => stopped(error.stack ?? error.message));
      worker.on('exit', (code) => stopped(`it exited with code ${code}`));
      feed();
    };

    /** Lane 0: between two files the event loop turns, so the workers' outcomes are taken in time. */
    const lintHere = async (): Promise<void> => {
      for (let job = source.next(0); job && !finished; job = source.next(0)) {
        const outcome = await local.lint(job);
        if (finished) return;
        settle(outcome);
        await new Promise<void>((resolveTurn) => setImmediate(resolveTurn));
      }
    };

    if (remaining === 0) {
      finish();
      return;
    }
    for (let lane = 1; lane < source.lanes; lane++) start(lane);
    lintHere().catch(finish);
  });
}

function lostOutcome(job: LintJob, reason: string): FileOutcome {
  return { ...emptyOutcome(job), notices: [{ kind: 'internalError', filePath: job.filePath, detail: `the lint worker stopped: ${reason}` }] };
}
