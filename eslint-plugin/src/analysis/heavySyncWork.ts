import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import type { BlockingCall } from './blockingApis';
import { isSynchronouslyInvoked } from './asyncContext';
import { runningFunction } from './callGraph';
import { isDevOnly } from './devOnly';
import { isFirstRunSetup } from './firstRun';
import { isOncePerProcess } from './onceOnly';
import { isStartupPhase } from './phase';
import type { RoleSubject } from './role';
import { processRole } from './role';

type Services = Readonly<TSESLint.SourceCode>;

/** A catalogued call the catalogue marks CPU-heavy (`kind: 'cpu'`: a password hash, a child process). */
export function isCpuHeavy(found: BlockingCall): boolean {
  return found.api.kind === 'cpu';
}

/**
 * The synchronous helper or method a CPU-heavy call (`isCpuHeavy`) runs in, when a long-lived
 * process may run it while it serves, though no async caller is in sight: its callers are in
 * other files, in a class's users, or not known at all. A stall of tens of milliseconds per
 * call (a password hash, a `df` child process) costs every request in flight wherever the call
 * comes from, so the chain need not be seen. Null when the code runs once or outside serving:
 * at module top level, in a constructor or a field initialiser (a service is built once), in
 * an anonymous callback handed to an API the lint does not know, in a function only startup
 * calls (`isStartupPhase`), under a development-only test, behind lazy initialisation or a
 * first-run setup (`isFirstRunSetup`), or in a file one-shot code runs (a CLI, a script, a test).
 */
export function servingSyncFunction(sourceCode: Services, call: TSESTree.Node, subject: RoleSubject): FunctionNode | null {
  const fn = runningFunction(call);
  if (!fn || fn.async || fn.generator || isSynchronouslyInvoked(fn) || !isNamedHelper(fn)) return null;
  if (isDevOnly(sourceCode, call) || isOncePerProcess(sourceCode, call) || isFirstRunSetup(sourceCode, call, fn)) return null;
  if (processRole(subject).role === 'one-shot') return null;
  return isStartupPhase(sourceCode, fn, call) ? null : fn;
}

/**
 * A function declared under a name or as a member: `function hash()`, `const hash = () => …`,
 * a class method other than the constructor, a class field holding a function, an object's
 * method, `exports.hash = function …`. Not a callback passed in place.
 */
function isNamedHelper(fn: FunctionNode): boolean {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id !== null;
  const parent = fn.parent;
  switch (parent?.type) {
    case AST_NODE_TYPES.VariableDeclarator:
      return parent.init === fn && parent.id.type === AST_NODE_TYPES.Identifier;
    case AST_NODE_TYPES.MethodDefinition:
      return parent.kind !== 'constructor';
    case AST_NODE_TYPES.PropertyDefinition:
      return parent.value === fn;
    case AST_NODE_TYPES.Property:
      return parent.value === fn && parent.parent.type === AST_NODE_TYPES.ObjectExpression;
    case AST_NODE_TYPES.AssignmentExpression:
      return parent.right === fn && parent.left.type === AST_NODE_TYPES.MemberExpression;
    default:
      return false;
  }
}
