import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { constInit, findVariable, isFunctionNode, skipTransparent, staticPropertyName } from './ast';
import type { ModuleRef } from './imports';
import { importedModules, resolveReference } from './imports';
import { ModuleAnswers, isProjectSpecifier, localExport, sourceFileOf } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/** A function found in one of the project's own modules, with the `SourceCode` to analyse it on. */
export interface ModuleFunction {
  fn: FunctionNode;
  sourceCode: Services;
  file: string;
  /** The name it is exported or declared under, for messages. */
  name: string;
}

/** Imports followed from module to module (`export { send } from './mailer'` aside, which localExport follows). */
const MAX_HOPS = 3;


const localImportCache = new ModuleAnswers<object, boolean>();

/** Does the file import any of the project's own modules? One set lookup per file lets the rest skip. */
export function importsProjectModules(sourceCode: Services): boolean {
  const hit = localImportCache.get(sourceCode, sourceCode);
  if (hit !== undefined) return hit;
  const found = [...importedModules(sourceCode)].some((m) => isProjectSpecifier(sourceCode, m));
  localImportCache.set(sourceCode, found);
  return found;
}

const calleeCache = new ModuleAnswers<TSESTree.Node, ModuleFunction | null>();

/**
 * The function a callee denotes when it lives in another of the project's modules:
 * `import { sendMail } from './mail'` → `sendMail(…)`, `mail.sendMail(…)` on a namespace or
 * CommonJS object, a method of an exported object or class instance (`store.save(…)`), and a
 * method of a local `new Mailer()` whose class is imported. Null for anything else, including a
 * module that cannot be read: the caller then knows as much as before.
 */
export function importedFunction(sourceCode: Services, callee: TSESTree.Node): ModuleFunction | null {
  const expr = skipTransparent(callee);
  if (expr.type !== AST_NODE_TYPES.Identifier && expr.type !== AST_NODE_TYPES.MemberExpression) return null;
  const hit = calleeCache.get(sourceCode, expr);
  if (hit !== undefined) return hit;
  calleeCache.set(expr, null);
  const found = computeImported(sourceCode, expr, 0);
  calleeCache.set(expr, found);
  return found;
}

function computeImported(sourceCode: Services, expr: TSESTree.Identifier | TSESTree.MemberExpression, hops: number): ModuleFunction | null {
  const ref = resolveReference(sourceCode, expr);
  // A default import is named by the importing file: `import start from './startUp'` → `start`.
  const localName = expr.type === AST_NODE_TYPES.Identifier ? expr.name : staticPropertyName(expr) ?? 'the default export';
  if (ref) return isProjectSpecifier(sourceCode, ref.module) ? followRef(sourceCode, ref, hops, localName) : null;
  // `const mailer = new Mailer()` with `Mailer` imported: the method lives in Mailer's module.
  if (expr.type !== AST_NODE_TYPES.MemberExpression) return null;
  const method = staticPropertyName(expr);
  const value = expr.object.type === AST_NODE_TYPES.Identifier ? constInit(sourceCode, expr.object) : null;
  const init = value ? skipTransparent(value) : null;
  if (method === null || init?.type !== AST_NODE_TYPES.NewExpression) return null;
  const classRef = resolveReference(sourceCode, init.callee);
  if (!classRef || !isProjectSpecifier(sourceCode, classRef.module)) return null;
  const found = localExport(sourceCode, classRef);
  if (!found || found.rest.length > 0) return null;
  const cls = valueShape(found.value.sourceCode, found.value.node, hops + 1);
  return cls?.kind === 'class' ? memberFunction(cls, method, false) : null;
}

/** `ref` resolved in the module it names, then its remaining path (at most one member) applied. */
function followRef(sourceCode: Services, ref: ModuleRef, hops: number, localName: string): ModuleFunction | null {
  if (hops > MAX_HOPS) return null;
  const found = localExport(sourceCode, ref) ?? memberOfDefault(sourceCode, ref);
  if (!found || found.rest.length > 1) return null;
  const { value, rest } = found;
  const shape = valueShape(value.sourceCode, value.node, hops);
  if (!shape) return null;
  const member = rest[0];
  if (member === undefined) {
    return shape.kind === 'function' ? moduleFunction(shape.fn, shape.sourceCode, ref.path[ref.path.length - 1] ?? localName) : null;
  }
  if (shape.kind === 'function') return null;
  // `export class Mailer { static send() }` is called as `Mailer.send()`; an instance's methods are not static.
  return memberFunction(shape, member, shape.kind === 'class');
}

/**
 * `import Browser from './browser'` then `Browser.pause()`: the import names the default export,
 * and the member is one of its class's (named-export lookup reads object literals only).
 */
function memberOfDefault(sourceCode: Services, ref: ModuleRef): ReturnType<typeof localExport> {
  const path = ref.path.filter((p) => p !== 'default');
  if (path.length !== 1) return null;
  const found = localExport(sourceCode, { ...ref, path: [] });
  return found && found.rest.length === 0 ? { value: found.value, rest: path } : null;
}

function moduleFunction(fn: FunctionNode, sourceCode: Services, name: string): ModuleFunction | null {
  const file = sourceFileOf(sourceCode);
  return file ? { fn, sourceCode, file, name } : null;
}

type Shape =
  | { kind: 'function'; fn: FunctionNode; sourceCode: Services }
  | { kind: 'class'; node: TSESTree.ClassDeclaration | TSESTree.ClassExpression; sourceCode: Services }
  | { kind: 'instance'; node: TSESTree.ClassDeclaration | TSESTree.ClassExpression; sourceCode: Services }
  | { kind: 'object'; node: TSESTree.ObjectExpression; sourceCode: Services };

/**
 * What an exported value is, followed through `const` bindings, function declarations and
 * further imports of the project's own modules: a function, a class, an instance of a class
 * declared in the project, or an object literal.
 */
function valueShape(sourceCode: Services, node: TSESTree.Node, hops: number): Shape | null {
  if (hops > MAX_HOPS) return null;
  const expr = skipTransparent(node);
  if (isFunctionNode(expr)) return { kind: 'function', fn: expr, sourceCode };
  if (expr.type === AST_NODE_TYPES.ClassDeclaration || expr.type === AST_NODE_TYPES.ClassExpression) {
    return { kind: 'class', node: expr, sourceCode };
  }
  if (expr.type === AST_NODE_TYPES.ObjectExpression) return { kind: 'object', node: expr, sourceCode };
  if (expr.type === AST_NODE_TYPES.NewExpression) {
    const cls = valueShape(sourceCode, expr.callee, hops);
    return cls?.kind === 'class' ? { ...cls, kind: 'instance' } : null;
  }
  // A `require('./mail')` call is followed below, like an import.
  if (expr.type !== AST_NODE_TYPES.Identifier && expr.type !== AST_NODE_TYPES.MemberExpression && expr.type !== AST_NODE_TYPES.CallExpression) {
    return null;
  }
  // `export const send = …` hands over the binding itself.
  const declarator = expr.parent;
  if (declarator?.type === AST_NODE_TYPES.VariableDeclarator && declarator.id === expr) {
    return declarator.init && declarator.parent.kind === 'const' ? valueShape(sourceCode, declarator.init, hops) : null;
  }
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, expr);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type === 'FunctionName' && isFunctionNode(def.node)) return { kind: 'function', fn: def.node, sourceCode };
    if (def?.type === 'ClassName') return valueShape(sourceCode, def.node, hops);
    if (def?.type === 'Variable' && def.node.id === def.name) {
      return def.node.init && def.parent.kind === 'const' ? valueShape(sourceCode, def.node.init, hops) : null;
    }
    // Imports and destructured requires are followed into their module; parameters and the rest are unknown.
    if (def && def.type !== 'ImportBinding' && def.type !== 'Variable') return null;
  }
  const ref = resolveReference(sourceCode, expr);
  if (!ref || !isProjectSpecifier(sourceCode, ref.module)) return null;
  const found = localExport(sourceCode, ref);
  if (!found || found.rest.length > 0) return null;
  return valueShape(found.value.sourceCode, found.value.node, hops + 1);
}

/** A method or function-valued property of an object literal or class (one level, no inheritance). */
function memberFunction(shape: Exclude<Shape, { kind: 'function' }>, name: string, isStatic: boolean): ModuleFunction | null {
  if (shape.kind === 'object') {
    for (const prop of shape.node.properties) {
      if (prop.type !== AST_NODE_TYPES.Property || prop.computed || prop.kind !== 'init') continue;
      const key = prop.key.type === AST_NODE_TYPES.Identifier ? prop.key.name : null;
      if (key === name && isFunctionNode(prop.value)) return moduleFunction(prop.value, shape.sourceCode, name);
    }
    return null;
  }
  for (const member of shape.node.body.body) {
    if (member.type !== AST_NODE_TYPES.MethodDefinition && member.type !== AST_NODE_TYPES.PropertyDefinition) continue;
    if (member.static !== isStatic || member.computed || member.key.type !== AST_NODE_TYPES.Identifier || member.key.name !== name) continue;
    if (member.type === AST_NODE_TYPES.MethodDefinition && member.kind !== 'method') continue;
    return isFunctionNode(member.value) ? moduleFunction(member.value, shape.sourceCode, name) : null;
  }
  return null;
}
