import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { enclosingFunction, findVariable, skipTransparent, staticPropertyName, walk } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';
import { resolveReference } from './imports';
import { isProjectSpecifier, localExport } from './localModules';
import { beforeFirstAwait, listenCallbackCall } from './serverStart';

type Services = Readonly<TSESLint.SourceCode>;
type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/**
 * `new Identification((ident) => manager.init(ident))`: when `fn` is an argument of `new C(…)`,
 * `C` a class of the project (in this file or imported from one of its modules) whose constructor
 * calls that parameter only while it runs or in a one-shot step it starts there (the callback of
 * a server it puts up, that server's `error` listener, a `.once(…)` listener), the `new`
 * expression: `fn` runs in the phase the construction does. Null otherwise, and when the
 * constructor keeps the callback or hands it on (anything may call it later).
 */
export function constructedWithCallback(sourceCode: Services, fn: FunctionNode): TSESTree.NewExpression | null {
  let arg: TSESTree.Node = fn;
  while (arg.parent && (arg.parent.type === AST_NODE_TYPES.TSAsExpression || arg.parent.type === AST_NODE_TYPES.TSSatisfiesExpression)) arg = arg.parent;
  const built = arg.parent;
  if (built?.type !== AST_NODE_TYPES.NewExpression) return null;
  const index = built.arguments.indexOf(arg as TSESTree.CallExpressionArgument);
  if (index < 0 || built.arguments.slice(0, index).some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return null;
  const found = projectClass(sourceCode, built.callee);
  if (!found) return null;
  const ctor = found.cls.body.body.find((m): m is TSESTree.MethodDefinition => m.type === AST_NODE_TYPES.MethodDefinition && m.kind === 'constructor');
  const param = ctor?.value.params[index];
  const id = param?.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
  if (ctor?.value.type !== AST_NODE_TYPES.FunctionExpression || id?.type !== AST_NODE_TYPES.Identifier) return null;
  const body = ctor.value;
  const variable = findVariable(found.sourceCode, id);
  if (!variable) return null;
  const reads = variable.references.filter((r) => r.isRead());
  return reads.length > 0 && reads.every((r) => calledOnceFrom(found.sourceCode, r.identifier, body)) ? built : null;
}

/** The class `callee` names, declared in this file or exported by one of the project's modules. */
function projectClass(sourceCode: Services, callee: TSESTree.Node): { cls: ClassNode; sourceCode: Services } | null {
  const expr = skipTransparent(callee);
  if (expr.type !== AST_NODE_TYPES.Identifier) return null;
  const own = declaredClass(sourceCode, expr);
  if (own) return { cls: own, sourceCode };
  const ref = resolveReference(sourceCode, expr);
  if (!ref || !isProjectSpecifier(sourceCode, ref.module)) return null;
  const found = localExport(sourceCode, ref);
  if (!found || found.rest.length > 0) return null;
  const node = found.value.node;
  if (node.type === AST_NODE_TYPES.ClassDeclaration || node.type === AST_NODE_TYPES.ClassExpression) return { cls: node, sourceCode: found.value.sourceCode };
  const cls = node.type === AST_NODE_TYPES.Identifier ? declaredClass(found.value.sourceCode, node) : null;
  return cls ? { cls, sourceCode: found.value.sourceCode } : null;
}

function declaredClass(sourceCode: Services, id: TSESTree.Identifier): ClassNode | null {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  return def?.type === 'ClassName' && (def.node.type === AST_NODE_TYPES.ClassDeclaration || def.node.type === AST_NODE_TYPES.ClassExpression) ? def.node : null;
}

/**
 * Is `use` (a read of the constructor's parameter) the callee of a call made while `ctor` runs,
 * or in one of the one-shot steps it starts, step by step out to the constructor?
 */
function calledOnceFrom(sourceCode: Services, use: TSESTree.Node, ctor: FunctionNode): boolean {
  const call = use.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== use) return false;
  let node: TSESTree.Node = call;
  for (let fn = enclosingFunction(node); fn !== ctor; fn = enclosingFunction(node)) {
    if (fn === null) return false;
    if (isSynchronouslyInvoked(fn)) {
      node = fn;
      continue;
    }
    const listen = listenCallbackCall(fn);
    if (listen) {
      if (!beforeFirstAwait(sourceCode, fn, node)) return false;
      node = listen;
      continue;
    }
    const registration = oneShotListener(sourceCode, fn, ctor);
    if (!registration) return false;
    node = registration;
  }
  return true;
}

/**
 * `x.once(event, fn)`, or `server.on('error', fn)` on a server the constructor itself puts up
 * (`server.listen(…)` on the same name): the listener that reports a failed listen, the failure
 * of the same start step the listen callback reports. (An accept error, `EMFILE`, would run it
 * again while the server serves; that rare path is left to count as the start step.)
 */
function oneShotListener(sourceCode: Services, fn: FunctionNode, ctor: FunctionNode): TSESTree.CallExpression | null {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(fn as TSESTree.CallExpressionArgument)) return null;
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(callee);
  if (method === 'once') return call;
  const [event] = call.arguments;
  const target = skipTransparent(callee.object);
  if (method !== 'on' || event?.type !== AST_NODE_TYPES.Literal || event.value !== 'error' || target.type !== AST_NODE_TYPES.Identifier) return null;
  let listens = false;
  walk(ctor.body ?? ctor, sourceCode.visitorKeys, (n) => {
    if (n.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(n) === 'listen' && n.parent.type === AST_NODE_TYPES.CallExpression &&
      n.parent.callee === n) {
      const object = skipTransparent(n.object);
      if (object.type === AST_NODE_TYPES.Identifier && object.name === target.name) listens = true;
    }
    return !listens;
  });
  return listens ? call : null;
}
