import * as fs from 'node:fs/promises';
import type { FileRead } from 'eslint-plugin-async-hazards/project';
import type { AsyncHazardsLinter, CreateLinterOptions, LintMessage, LintNotice } from '../lint';
import { createLinter } from '../lint';
import { hash } from './cache';

/**
 * One file's lint, the same on the main thread and in a worker thread. Everything crossing a
 * thread is plain data (structured clone), so jobs, outcomes and notices hold no Error objects.
 */
export interface LintJob {
  /** Position in the sorted file list: outcomes are put back in this order. */
  index: number;
  filePath: string;
  /** The hash the cache holds for this file, if any: equal text means the cached findings stand. */
  cachedHash: string | null;
}

/** What a linter told while linting one file, in the order told. */
export type NoticeRecord =
  | { kind: 'configFailed'; configFile: string; message: string }
  | { kind: 'typeInfoUnavailable'; filePath: string; project: string | null }
  | { kind: 'ruleCrashed'; ruleId: string; filePath: string; detail: string }
  | { kind: 'internalError'; filePath: string; detail: string };

export interface FileOutcome {
  index: number;
  filePath: string;
  messages: LintMessage[];
  /** The cached findings stand (the text hashes to `LintJob.cachedHash`); `messages` is empty. */
  fromCache: boolean;
  /** Hash of the linted text, when the findings may be cached. */
  cacheHash: string | null;
  /** What the project layer read for the lint (`LintResult.reads`), kept with a cached result. */
  reads: FileRead[];
  /** The autofixed text, when fixing changed it. */
  output: string | null;
  /** Why the file was not linted (too large, binary), if so. */
  skipped: string | null;
  crashedRules: string[];
  notices: NoticeRecord[];
  /** The file could not be read. */
  readError: string | null;
}

/** The linter options a worker needs to build the same linter as the main thread (plain data). */
export type LinterSetup = Pick<CreateLinterOptions, 'cwd' | 'typeAware' | 'rules' | 'preset' | 'configFile' | 'oneShot' | 'longLived'>;

export interface FileLinter {
  lint(job: LintJob): Promise<FileOutcome>;
  dispose(): void;
}

export function createFileLinter(setup: LinterSetup, fix: { write: boolean; dryRun: boolean }): FileLinter {
  // Notices are heard synchronously inside `lint`, one file at a time, so they belong to it.
  let notices: NoticeRecord[] = [];
  const linter: AsyncHazardsLinter = createLinter({
    ...setup,
    trusted: true,
    maxFileSizeKb: Number.MAX_SAFE_INTEGER / 1024,
    onNotice: (notice) => {
      const record = toRecord(notice);
      if (record) notices.push(record);
    },
  });
  return {
    async lint(job) {
      notices = [];
      const outcome = await lintOne(linter, job, fix);
      outcome.notices = notices;
      return outcome;
    },
    dispose: () => linter.dispose(),
  };
}

/** An outcome with nothing found yet, filled in by whoever linted (or lost) the file. */
export function emptyOutcome(job: LintJob): FileOutcome {
  return {
    index: job.index,
    filePath: job.filePath,
    messages: [],
    fromCache: false,
    cacheHash: null,
    reads: [],
    output: null,
    skipped: null,
    crashedRules: [],
    notices: [],
    readError: null,
  };
}

async function lintOne(linter: AsyncHazardsLinter, job: LintJob, fix: { write: boolean; dryRun: boolean }): Promise<FileOutcome> {
  const outcome = emptyOutcome(job);
  let text: string;
  try {
    text = await fs.readFile(job.filePath, 'utf8');
  } catch (error) {
    outcome.readError = (error as Error).message;
    return outcome;
  }
  if (fix.write || fix.dryRun) {
    const fixed = await linter.fixText(text, job.filePath);
    if (fixed.fixed) {
      outcome.output = fixed.output;
      if (fix.write) await fs.writeFile(job.filePath, fixed.output);
      text = fixed.output;
    }
  }
  const textHash = hash(text);
  if (job.cachedHash === textHash) {
    outcome.fromCache = true;
    return outcome;
  }
  const result = await linter.lintText(text, job.filePath);
  if (result.skipped && result.skipped.reason !== 'ignored') outcome.skipped = result.skipped.detail;
  outcome.crashedRules = result.crashedRules;
  outcome.messages = result.messages;
  outcome.reads = result.reads;
  if (result.crashedRules.length === 0 && !result.skipped) outcome.cacheHash = textHash;
  return outcome;
}

function toRecord(notice: LintNotice): NoticeRecord | null {
  switch (notice.kind) {
    case 'configFailed':
    case 'configInvalid':
      return { kind: 'configFailed', configFile: notice.configFile, message: notice.error.message };
    case 'typeInfoUnavailable':
      return { kind: 'typeInfoUnavailable', filePath: notice.filePath, project: notice.project };
    case 'ruleCrashed':
      return { kind: 'ruleCrashed', ruleId: notice.ruleId, filePath: notice.filePath, detail: notice.error.stack ?? notice.error.message };
    case 'internalError':
      return { kind: 'internalError', filePath: notice.filePath, detail: notice.error.stack ?? notice.error.message };
    default:
      return null;
  }
}
