import type { TSESLint } from '@typescript-eslint/utils';
import { declaresDependency, dependencyVersion, importsOf, processEntriesOf } from '../project';
import type { FunctionNode } from './ast';
import type { Framework, HandlerRegistration } from './handlers';
import { handlerRegistration, importedRegistration, namedRegistration, usageRegistration } from './handlers';
import { sourceFileOf } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * What a framework does with the promise a registered callback returns, by major version.
 * `handles`: a rejection reaches the framework's own error path (an error response, a failed
 * job). `ignores`: the promise is dropped, so a rejection is unhandled and, for a request, the
 * response never comes. The sources are in docs/rules/no-orphaned-promise.md.
 */
export type PromisePolicy = 'handles' | 'ignores';

interface PolicyRow {
  /** The package whose installed or declared major decides. */
  package: string;
  /** The policy of each major from `from` on, oldest first; majors below the first row are unknown. */
  majors: readonly { from: number; policy: PromisePolicy }[];
}

const POLICIES: Readonly<Partial<Record<Framework | 'node-cron', PolicyRow>>> = {
  // Express 4's router calls a handler and drops what it returns; Express 5's router passes a
  // rejected promise to `next(err)`.
  express: { package: 'express', majors: [{ from: 4, policy: 'ignores' }, { from: 5, policy: 'handles' }] },
  fastify: { package: 'fastify', majors: [{ from: 2, policy: 'handles' }] },
  koa: { package: 'koa', majors: [{ from: 2, policy: 'handles' }] },
  hono: { package: 'hono', majors: [{ from: 1, policy: 'handles' }] },
  nestjs: { package: '@nestjs/core', majors: [{ from: 1, policy: 'handles' }] },
  next: { package: 'next', majors: [{ from: 9, policy: 'handles' }] },
  // Listeners are plain EventEmitter listeners: the return value goes nowhere.
  'socket.io': { package: 'socket.io', majors: [{ from: 1, policy: 'ignores' }] },
  ws: { package: 'ws', majors: [{ from: 1, policy: 'ignores' }] },
  // Handlers are middleware: the bot awaits each one's promise, and a rejection goes to the
  // handler given to `bot.catch` (or stops the bot when there is none).
  telegraf: { package: 'telegraf', majors: [{ from: 3, policy: 'handles' }] },
  grammy: { package: 'grammy', majors: [{ from: 1, policy: 'handles' }] },
  // node-cron 1 ran the task inside a synchronous try/catch only; 2 logs and emits `failed`,
  // 3 emits `task-failed`, 4 calls the task's `onError` (logging by default).
  'node-cron': { package: 'node-cron', majors: [{ from: 1, policy: 'ignores' }, { from: 2, policy: 'handles' }] },
};

/** The packages of the frameworks that, at some major, drop the promise. */
const IGNORING_PACKAGES: readonly string[] = Object.values(POLICIES)
  .filter((row) => row.majors.some((m) => m.policy === 'ignores'))
  .map((row) => row.package);

/** The package whose version decides the framework's policy. */
export function policyPackage(framework: Framework | 'node-cron'): string | null {
  return POLICIES[framework]?.package ?? null;
}

/**
 * What `framework` at `major` does with a callback's promise, or null when that is not known (no
 * row, or a version the table does not cover): callers then keep the verdict they had without it.
 */
export function promisePolicy(framework: Framework | 'node-cron', major: number | null): PromisePolicy | null {
  const row = POLICIES[framework];
  if (!row || major === null) return null;
  let policy: PromisePolicy | null = null;
  for (const step of row.majors) if (major >= step.from) policy = step.policy;
  return policy;
}

export interface FrameworkVerdict {
  framework: Framework;
  /** The major the verdict was read for. */
  major: number;
  policy: PromisePolicy;
  registration: HandlerRegistration;
}

/**
 * For an async function a framework runs (a route, a hook, a listener): what that framework, at
 * the version the file runs against, does with its promise. Null when `fn` is not a handler or the
 * version is unknown.
 */
export function handlerPromiseVerdict(sourceCode: Services, filename: string, fn: FunctionNode): FrameworkVerdict | null {
  const registration = handlerRegistration(sourceCode, filename, fn);
  return registration?.byUsage === 'module' ? null : verdictFor(filename, registration, sourceCode);
}

/**
 * The same for an exported async function that a file importing it registers
 * (`router.get('/x', one)`): the version is the one `fn`'s own file runs against.
 */
export function importedHandlerVerdict(sourceCode: Services, filename: string, fn: FunctionNode): (FrameworkVerdict & { file: string }) | null {
  // Only a package that depends on a framework that drops a promise asks its importers.
  if (!IGNORING_PACKAGES.some((pkg) => declaresDependency(filename, pkg))) return null;
  const registration = importedRegistration(sourceCode, fn);
  const verdict = registration && verdictFor(filename, registration, sourceCode);
  return verdict && registration ? { ...verdict, file: registration.file } : null;
}

/** The same for a named function of this file that the file registers by name (`app.get('/', handler)`). */
export function namedHandlerVerdict(sourceCode: Services, filename: string, fn: FunctionNode): FrameworkVerdict | null {
  return verdictFor(filename, namedRegistration(sourceCode, fn), sourceCode);
}

/**
 * The same for a module-level function told a handler by how it uses its parameters (see
 * `usageRegistration`); only when it is not registered in sight, which the others answer, and only
 * in a package whose server is out of sight: where it is in sight, a module nothing imports may be
 * loaded by the package's own loader, which may await it.
 */
export function usageHandlerVerdict(sourceCode: Services, filename: string, fn: FunctionNode): FrameworkVerdict | null {
  const registration = usageRegistration(sourceCode, filename, fn);
  return registration?.byUsage === 'server' ? verdictFor(filename, registration, sourceCode) : null;
}

function verdictFor(filename: string, registration: HandlerRegistration | null, sourceCode: Services): FrameworkVerdict | null {
  if (!registration) return null;
  const pkg = policyPackage(registration.framework);
  const major = pkg ? dependencyVersion(filename, pkg).major : null;
  let policy = promisePolicy(registration.framework, major);
  if (policy === 'ignores' && registration.framework === 'express' && expressRejectionsPatched(sourceCode, filename, registration)) policy = 'handles';
  return policy && major !== null ? { framework: registration.framework, major, policy, registration } : null;
}

/**
 * Express 4 with its rejections handed to `next` by a package: `express-async-errors` patches
 * the router when required once (by the file or an entry of the process that runs it);
 * `express-async-handler` and `express-promise-router` wrap each handler. A wrapped handler in
 * sight is no registration; one told by usage has its router out of sight, so a package that
 * depends on a wrapper may be wrapping it.
 */
function expressRejectionsPatched(sourceCode: Services, filename: string, registration: HandlerRegistration): boolean {
  if (registration.byUsage && WRAPPERS.some((p) => declaresDependency(filename, p))) return true;
  if (!declaresDependency(filename, PATCH)) return false;
  const file = sourceFileOf(sourceCode) ?? filename;
  const requires = (f: string, program?: TSESLint.SourceCode['ast']): boolean => importsOf(f, program).some((i) => i.specifier === PATCH);
  if (requires(file, sourceCode.ast)) return true;
  return (processEntriesOf(file) ?? []).some((e) => requires(e.entry) ||
    importsOf(e.entry).some((i) => i.resolution.kind === 'file' && i.resolution.local && requires(i.resolution.path)));
}

const PATCH = 'express-async-errors';
const WRAPPERS = ['express-async-handler', 'express-promise-router'];
