// Entry of a lint worker thread (server/dist/cli-worker.js; worker.ts under tsx). It lints the
// files the main thread sends, one at a time, with its own linter, and sends back each outcome.
import { parentPort, workerData } from 'node:worker_threads';
import type { LintJob } from './lintFile';
import { createFileLinter } from './lintFile';
import type { ToMain, WorkerSetup } from './pool';

const port = parentPort;
if (!port) throw new Error('cli worker started outside a worker thread');
const setup = workerData as WorkerSetup;
const linter = createFileLinter(setup.linter, setup.fix);
const queue: LintJob[] = [];
let busy = false;

port.on('message', (job: LintJob) => {
  queue.push(job);
  if (!busy) void drain();
});

/** One file at a time: a linter's notices belong to the file it is linting. */
async function drain(): Promise<void> {
  busy = true;
  for (let job = queue.shift(); job; job = queue.shift()) {
    let message: ToMain;
    try {
      message = { kind: 'outcome', outcome: await linter.lint(job) };
    } catch (error) {
      message = { kind: 'failed', index: job.index, detail: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    port?.postMessage(message);
  }
  busy = false;
}
