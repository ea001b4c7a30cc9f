import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { isFunctionNode, staticPropertyName, walk } from './ast';
import { enclosingHandler } from './handlers';
import { moduleSourceCode, sourceFileOf } from './localModules';
import { packageImporters, readText } from '../project';

type Services = Readonly<TSESLint.SourceCode>;
type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/** More importers than this and the question is left open. */
const MAX_IMPORTERS = 16;

const cache = new WeakMap<FunctionNode, boolean>();

/**
 * Is `fn` the method that sets up the module's one instance of its class: the class is only ever
 * built at the module's top level (`export default new DatabaseService()`), `fn` assigns a field
 * (`this.db = await open(…)`) and another method refuses to work without it (`if (!this.db) throw
 * …`)? Then the object is of no use until `fn` has run, once, as the process sets it up: not per
 * request. A call of the method the package shows inside a request handler, or a class built
 * anywhere else (in a function, or by an importer: the class is exported), says otherwise.
 */
export function isSingletonInitializer(sourceCode: Services, fn: FunctionNode): boolean {
  const hit = cache.get(fn);
  if (hit !== undefined) return hit;
  const result = compute(sourceCode, fn);
  cache.set(fn, result);
  return result;
}

function compute(sourceCode: Services, fn: FunctionNode): boolean {
  const member = fn.parent;
  if (member?.type !== AST_NODE_TYPES.MethodDefinition || member.static || member.computed || member.kind !== 'method' ||
    member.key.type !== AST_NODE_TYPES.Identifier) {
    return false;
  }
  const cls = member.parent.parent;
  const name = member.key.name;
  if (!builtOnceAtTopLevel(sourceCode, cls)) return false;
  const fields = assignedFields(sourceCode, fn);
  if (fields.size === 0 || !requiredElsewhere(sourceCode, cls, member, fields)) return false;
  const file = sourceFileOf(sourceCode);
  if (file === null || calledFromHandler(sourceCode, file, name)) return false;
  const importers = packageImporters(file);
  if (importers === null) return false;
  const called = new RegExp(`\\.\\s*${name.replace(/[$]/g, '\\$')}\\b`);
  const naming = importers.filter((importer) => called.test(readText(importer) ?? ''));
  if (naming.length > MAX_IMPORTERS) return false;
  return naming.every((importer) => {
    const other = moduleSourceCode(importer);
    return other !== null && !calledFromHandler(other, importer, name);
  });
}

/** `class C {}` that its file builds with `new C()` at the top level and never hands on, exports or builds elsewhere. */
function builtOnceAtTopLevel(sourceCode: Services, cls: ClassNode): boolean {
  if (cls.type !== AST_NODE_TYPES.ClassDeclaration || !cls.id) return false;
  const wrapper = cls.parent?.type;
  if (wrapper === AST_NODE_TYPES.ExportNamedDeclaration || wrapper === AST_NODE_TYPES.ExportDefaultDeclaration) return false;
  const id = cls.id;
  // Two bindings: the enclosing scope's, and the class's own inside its body (`new C()` in a method builds more).
  const reads = sourceCode.getDeclaredVariables(cls).filter((v) => v.name === id.name).flatMap((v) => v.references).filter((r) => r.isRead());
  return reads.length === 1 && reads.every((r) => {
    const parent = r.identifier.parent;
    return parent?.type === AST_NODE_TYPES.NewExpression && parent.callee === r.identifier && outsideFunctions(parent);
  });
}

function outsideFunctions(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunctionNode(current) || current.type === AST_NODE_TYPES.PropertyDefinition || current.type === AST_NODE_TYPES.StaticBlock) return false;
  }
  return true;
}

/** The fields `fn` assigns: `this.db = …`, not in a nested plain function (its `this` is another). */
function assignedFields(sourceCode: Services, fn: FunctionNode): Set<string> {
  const fields = new Set<string>();
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.FunctionDeclaration) return false;
    if (node.type === AST_NODE_TYPES.AssignmentExpression && node.operator === '=') {
      const field = thisField(node.left);
      if (field !== null) fields.add(field);
    }
    return true;
  });
  return fields;
}

function thisField(node: TSESTree.Node): string | null {
  return node.type === AST_NODE_TYPES.MemberExpression && node.object.type === AST_NODE_TYPES.ThisExpression ? staticPropertyName(node) : null;
}

/** Another method of the class throws when one of `fields` is unset: `if (!this.db) throw new Error(…)`. */
function requiredElsewhere(sourceCode: Services, cls: ClassNode, own: TSESTree.MethodDefinition, fields: ReadonlySet<string>): boolean {
  return cls.body.body.some((other) => {
    if (other === own || other.type !== AST_NODE_TYPES.MethodDefinition || other.static || other.kind === 'constructor' || !other.value.body) return false;
    let found = false;
    walk(other.value.body, sourceCode.visitorKeys, (node) => {
      if (found || node.type === AST_NODE_TYPES.FunctionExpression) return false;
      if (node.type === AST_NODE_TYPES.IfStatement && throwsAtOnce(node.consequent) && testsUnset(node.test, fields)) found = true;
      return !found;
    });
    return found;
  });
}

function throwsAtOnce(node: TSESTree.Statement): boolean {
  if (node.type === AST_NODE_TYPES.ThrowStatement) return true;
  return node.type === AST_NODE_TYPES.BlockStatement && node.body.some((s) => s.type === AST_NODE_TYPES.ThrowStatement);
}

/** `!this.db`, `this.db === null`, `this.db == undefined`, `!this.db || …`. */
function testsUnset(test: TSESTree.Expression, fields: ReadonlySet<string>): boolean {
  if (test.type === AST_NODE_TYPES.LogicalExpression && test.operator === '||') return testsUnset(test.left, fields) || testsUnset(test.right, fields);
  if (test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!') return fields.has(thisField(test.argument) ?? '');
  if (test.type === AST_NODE_TYPES.BinaryExpression && (test.operator === '===' || test.operator === '==')) {
    const [field, other] = thisField(test.left) !== null ? [test.left, test.right] : [test.right, test.left];
    const unset = (other.type === AST_NODE_TYPES.Literal && other.value === null) ||
      (other.type === AST_NODE_TYPES.Identifier && other.name === 'undefined');
    return unset && fields.has(thisField(field) ?? '');
  }
  return false;
}

/** A call `x.name(…)` in the file that runs inside a request handler. */
function calledFromHandler(sourceCode: Services, file: string, name: string): boolean {
  let found = false;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (found) return false;
    if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression &&
      staticPropertyName(node.callee) === name && enclosingHandler(sourceCode, file, node) !== null) {
      found = true;
    }
    return !found;
  });
  return found;
}
