/**
 * Job schedulers of well-known packages that call a job function and drop the promise it returns,
 * told by what the receiver is (a construction from the package, an import of it), at the
 * version the file runs against; each row was read from the package's own source:
 * - agenda before 2: `define(name, [options,] fn)` calls `fn(job)` and marks the job done at once
 *   (2 and later await it and fail the job on a rejection);
 * - Bull 3 and 4: `process([name,] [concurrency,] fn)` with a `fn` that takes `done` is wrapped
 *   with `promisify`, which ignores what `fn` returns: only `done` ends the job;
 * - node-schedule: `scheduleJob(…, fn)` turns a rejection into an `error` event on the job it
 *   returns; a job nobody keeps has no listener, so the event throws inside the library's own
 *   `.catch` and the rejection is unhandled.
 * A version that cannot be read leaves the call alone.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { isFunctionNode, shortSource, skipTransparent, staticPropertyName } from './ast';
import { resolveCalleeFunction } from './callGraph';
import { getConstruction } from './construction';
import { resolveReference } from './imports';
import { sourceFileOf } from './localModules';
import { importedFunction } from './moduleFunctions';
import { dependencyVersion } from '../project';

type Services = Readonly<TSESLint.SourceCode>;

export interface JobRegistration {
  /** How the registration reads in messages: the callee, `flowQueue.process`. */
  name: string;
  /** The argument that is the job function. */
  callbackIndex: number;
  /** A job function is often written in its own module: one imported by name counts too. */
  followsImports: true;
}

/** The job function's registration when its package drops the promise, else null. */
export function jobRegistration(sourceCode: Services, call: TSESTree.CallExpression): JobRegistration | null {
  const callee = skipTransparent(call.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? staticPropertyName(callee) : callee.type === AST_NODE_TYPES.Identifier ? callee.name : null;
  if (method !== 'define' && method !== 'process' && method !== 'scheduleJob') return null;
  const index = call.arguments.findIndex((a) => isFunctionNode(a) || a.type === AST_NODE_TYPES.Identifier);
  const fn = index < 0 ? null : jobFunction(sourceCode, call.arguments[index] as TSESTree.Node);
  if (!fn) return null;
  const name = calleeText(sourceCode, callee);
  if (method === 'scheduleJob') return scheduled(sourceCode, call, callee, index, name);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const module = getConstruction(sourceCode, callee.object)?.ref.module;
  const major = module ? majorOf(sourceCode, module) : null;
  if (major === null) return null;
  if (method === 'define' && module === 'agenda' && major < 2) return { name, callbackIndex: index, followsImports: true };
  if (method === 'process' && module === 'bull' && (major === 3 || major === 4) && fn.params.length >= 2) {
    return { name, callbackIndex: index, followsImports: true };
  }
  return null;
}

/** The job function an argument is: written in place, declared in this file, or imported from a project module. */
function jobFunction(sourceCode: Services, arg: TSESTree.Node): FunctionNode | null {
  if (isFunctionNode(arg)) return arg;
  return resolveCalleeFunction(sourceCode, arg) ?? importedFunction(sourceCode, arg)?.fn ?? null;
}

function calleeText(sourceCode: Services, callee: TSESTree.Node): string {
  return shortSource(sourceCode, callee) ?? 'the scheduler';
}

/** `schedule.scheduleJob(rule, fn)` or an imported `scheduleJob`, whose job is dropped where it is made. */
function scheduled(sourceCode: Services, call: TSESTree.CallExpression, callee: TSESTree.Node, index: number, name: string): JobRegistration | null {
  const ref = resolveReference(sourceCode, callee);
  if (ref?.module !== 'node-schedule' || ref.path[ref.path.length - 1] !== 'scheduleJob') return null;
  if (call.parent?.type !== AST_NODE_TYPES.ExpressionStatement) return null;
  return majorOf(sourceCode, 'node-schedule') === null ? null : { name, callbackIndex: index, followsImports: true };
}

function majorOf(sourceCode: Services, module: string): number | null {
  const file = sourceFileOf(sourceCode);
  return file ? dependencyVersion(file, module).major : null;
}
