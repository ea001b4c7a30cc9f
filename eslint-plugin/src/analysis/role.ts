import * as path from 'node:path';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { enclosingFunction } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';
import { SERVER_FRAMEWORK_PACKAGES } from './handlers';
import { isStartupPhase } from './phase';
import { declaresDependency, entryReach, hasMainGuard, hasShebang, isLibraryPackage, isTestFile, matchesGlob, nearestPackage } from '../project';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * What kind of process runs a file. One-shot code (a CLI command, a migration, a test, a
 * maintainer script) runs to its end with nothing else sharing the event loop unless it starts
 * concurrent work itself; long-lived code (servers, workers, libraries) shares it with every
 * request in flight.
 */
export type RoleName = 'one-shot' | 'long-lived';
/** Long-lived code before it serves (module top level, `main()` before `listen`, NestJS init hooks), or serving. */
export type PhaseName = 'startup' | 'serving';

export interface ProcessRole {
  role: RoleName;
  /** For long-lived code at a given node; null for one-shot code, or when no node was asked about. */
  phase: PhaseName | null;
  /** Why, in words: "the package.json script `migrate`", "settings oneShot `scripts/**`". */
  reason: string;
}

/** A rule's context, or the same facts from an integration that linted the file itself. */
export interface RoleSubject {
  filename: string;
  /** The folder relative `oneShot`/`longLived` globs are read from (ESLint's `context.cwd`). */
  cwd?: string;
  settings?: unknown;
  sourceCode?: Services;
}

/** Packages besides the handler frameworks whose presence means a process that keeps running. */
const LONG_RUNNING_PACKAGES: readonly string[] = [
  '@nestjs/core', '@hapi/hapi', 'restify', 'polka', 'h3', 'micro', '@apollo/server', 'apollo-server', 'graphql-yoga',
  'bullmq', 'bull', 'bee-queue', 'kafkajs', 'amqplib', 'agenda', 'node-cron',
];

/**
 * The role of the file `subject` names and, given a `node` in it (and a source code), the phase
 * there. In order: the `longLived` and then the `oneShot` globs of `settings['async-hazards']`; a
 * test file; what the package graph says (see `project/entries.ts`); a CLI package (a `bin` and
 * no server framework among its dependencies); else long-lived.
 */
export function processRole(subject: string | RoleSubject, node?: TSESTree.Node): ProcessRole {
  const s: RoleSubject = typeof subject === 'string' ? { filename: subject } : subject;
  const base = fileRole(s);
  if (base.role === 'one-shot' || !node || !s.sourceCode) return base;
  return { ...base, phase: phaseAt(s.sourceCode, node) };
}

function fileRole(s: RoleSubject): ProcessRole {
  const filename = path.isAbsolute(s.filename) ? s.filename : path.resolve(s.cwd ?? process.cwd(), s.filename);
  const globs = roleGlobs(s.settings, s.cwd ?? process.cwd());
  const longLived = globs.longLived.find((g) => matchesGlob(filename, g.absolute));
  if (longLived) return { role: 'long-lived', phase: null, reason: `settings longLived \`${longLived.glob}\`` };
  const oneShot = globs.oneShot.find((g) => matchesGlob(filename, g.absolute));
  if (oneShot) return { role: 'one-shot', phase: null, reason: `settings oneShot \`${oneShot.glob}\`` };
  if (isTestFile(filename)) return { role: 'one-shot', phase: null, reason: 'a test file' };
  const reach = entryReach(filename);
  // The text being linted may be newer than the saved file the package graph read.
  const own = ownEvidence(s.sourceCode?.text);
  if (own && !(reach.kind === 'long-lived' && !reach.entry)) return { role: 'one-shot', phase: null, reason: own };
  if (reach.kind === 'one-shot') return { role: 'one-shot', phase: null, reason: reach.reason };
  if (isCliPackage(filename)) return { role: 'one-shot', phase: null, reason: 'a CLI package (a `bin`, no server framework, no library entry)' };
  return { role: 'long-lived', phase: null, reason: reach.kind === 'long-lived' ? reach.reason : 'no one-shot entry reaches it' };
}

function ownEvidence(text: string | undefined): string | null {
  if (text === undefined) return null;
  if (hasShebang(text)) return 'a script with a shebang';
  return hasMainGuard(text) ? 'a script that runs itself (`require.main === module` or `import.meta.main`)' : null;
}

/** A `bin`, no server framework or job runner among the dependencies, and no `main`/`exports` other than the command. */
function isCliPackage(filename: string): boolean {
  const facts = nearestPackage(filename);
  if (Object.keys(facts.bin).length === 0 || isLibraryPackage(filename)) return false;
  return ![...SERVER_FRAMEWORK_PACKAGES, ...LONG_RUNNING_PACKAGES].some((name) => declaresDependency(filename, name));
}

/**
 * `startup` at module top level and in code only the process's start runs (see `isStartupPhase`),
 * `serving` elsewhere.
 */
function phaseAt(sourceCode: Services, node: TSESTree.Node): PhaseName {
  // The function whose run `node` is part of: synchronous callbacks (`.map`, an executor) run in their caller.
  let fn = enclosingFunction(node);
  while (fn && !fn.async && isSynchronouslyInvoked(fn)) fn = enclosingFunction(fn);
  if (fn === null) return 'startup';
  return isStartupPhase(sourceCode, fn, node) ? 'startup' : 'serving';
}

export interface RoleGlob {
  /** As written. */
  glob: string;
  /** Rooted at the folder it is relative to, `/`-separated. */
  absolute: string;
}

export interface RoleGlobs {
  oneShot: RoleGlob[];
  longLived: RoleGlob[];
  /** One sentence per value that is not a glob string, for whoever can show it. */
  problems: string[];
}

const globCache = new WeakMap<object, Map<string, RoleGlobs>>();
const NONE: RoleGlobs = { oneShot: [], longLived: [], problems: [] };

/**
 * `settings['async-hazards'].oneShot` and `.longLived`: arrays of globs, relative to `cwd` unless
 * absolute. Under ESLint that is `context.cwd`, the folder ESLint runs in, which is where the
 * flat config file is found in the usual setup; the CLI and the editor root them at the config
 * file's folder (and their own flags at the working directory) before they reach the rules.
 * Values that are not strings are left out and named in `problems`.
 */
export function roleGlobs(settings: unknown, cwd: string): RoleGlobs {
  const shared = typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>)['async-hazards'] : undefined;
  if (typeof shared !== 'object' || shared === null) return NONE;
  let byCwd = globCache.get(shared);
  if (!byCwd) globCache.set(shared, (byCwd = new Map()));
  const hit = byCwd.get(cwd);
  if (hit) return hit;
  const record = shared as Record<string, unknown>;
  const problems: string[] = [];
  const read = (key: 'oneShot' | 'longLived'): RoleGlob[] => {
    const value = record[key];
    if (value === undefined) return [];
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list)) {
      problems.push(`settings['async-hazards'].${key} must be an array of glob strings; it is ignored.`);
      return [];
    }
    const out: RoleGlob[] = [];
    for (const entry of list) {
      if (typeof entry !== 'string' || entry.trim() === '') {
        problems.push(`settings['async-hazards'].${key} has ${JSON.stringify(entry) ?? String(entry)}, which is not a glob string; it is ignored.`);
        continue;
      }
      out.push({ glob: entry, absolute: rooted(entry, cwd) });
    }
    return out;
  };
  const globs = { oneShot: read('oneShot'), longLived: read('longLived'), problems };
  byCwd.set(cwd, globs);
  return globs;
}

function rooted(glob: string, cwd: string): string {
  const negated = glob.startsWith('!');
  const body = negated ? glob.slice(1) : glob;
  const absolute = path.isAbsolute(body) ? body : path.join(cwd, body);
  return absolute.split(path.sep).join('/');
}
