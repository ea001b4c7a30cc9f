import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { enclosingFunction, findVariable, skipTransparent } from './ast';
import { isGatedRun } from './accessGates';
import type { Acquisition } from './locks';
import { isStartupPhase } from './phase';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * Does the function that connects open the connection for itself, for this one call: the client
 * (`const client = new Client(…)`, then `client.connect()`) or the connection a factory resolves
 * to (`const conn = await mysql.createConnection(…)`) lives in a variable of that function, never
 * a parameter, and nothing outside it writes the variable; and the function closes it somewhere
 * (`client.end()`). A client kept in a module or on `this` and connected once at startup is meant
 * to stay open for the life of the process, and one the function never closes is someone else's
 * to close (it is returned, stored, or kept on purpose): neither is a connection opened per call.
 */
export function opensOwnConnection(sourceCode: Services, acquisition: Acquisition): boolean {
  const fn = acquisition.function;
  if (!fn || acquisition.releaseCalls.length === 0) return false;
  const owner = acquisition.owner ? skipTransparent(acquisition.owner) : null;
  if (owner) return owner.type === AST_NODE_TYPES.Identifier && isLocalTo(findVariable(sourceCode, owner), fn);
  return isLocalTo(acquisition.resourceVariable, fn);
}

/** A `const`/`let`/`var` declared in `fn` itself, written nowhere else. */
function isLocalTo(variable: TSESLint.Scope.Variable | null, fn: FunctionNode): boolean {
  if (!variable || variable.defs.length === 0) return false;
  if (!variable.defs.every((def) => def.type === 'Variable' && enclosingFunction(def.name) === fn)) return false;
  return variable.references.every((ref) => !ref.isWrite() || enclosingFunction(ref.identifier as TSESTree.Node) === fn);
}

/**
 * Is a leak of this connection of its own rare by where it happens: at startup (once per start of
 * the process), or where only clients the process already let in reach it, or only a setup
 * server's (`isGatedRun`)? Each leak costs the database server one connection, so how often a
 * leak can happen is the whole cost: there it is one per start or per trusted retry, not one per
 * failing request. Recommended leaves those to strict.
 */
export function leaksOnlyRarely(sourceCode: Services, acquisition: Acquisition): boolean {
  const fn = acquisition.function;
  if (acquisition.kind !== 'connection' || !fn) return false;
  return isStartupPhase(sourceCode, fn, acquisition.acquireCall) || isGatedRun(sourceCode, fn, acquisition.acquireCall);
}
