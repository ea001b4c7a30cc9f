import * as path from 'node:path';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { isLibraryPackage, isTestSuiteFile, packageFilesNaming, packageImporters } from '../project';
import { contains, decoratorsOf, implementsOf, isFunctionNode, walk } from './ast';
import { resolveReference } from './imports';
import { isProjectSpecifier, ModuleAnswers, moduleSourceCode } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/** A function or method of the file, by the name its callers must write. */
interface Named {
  name: string;
  /** The function, whose own body may name itself (a timer label, a log line) without being a use. */
  fn: TSESTree.Node;
}

const cache = new ModuleAnswers<TSESTree.Node, boolean>();

/**
 * Does only the test suite run `node`? The outermost function or class method around it is named
 * by tests (`await store.importProjects(rows)` in an e2e test) and by nothing else in the package:
 * no other use of the name in a file outside the test folders, a declaration (an interface's
 * signature, a fake's method) aside. Never for a library package (its entry's importers are
 * unknown), a file no production module imports (a framework may load it), a decorated method or
 * a class that extends or implements a library's (the framework calls it), an object's method (a
 * handler table), or a name nothing uses at all.
 */
export function onlyTestsRun(sourceCode: Services, filename: string, node: TSESTree.Node): boolean {
  if (!path.isAbsolute(filename) || isTestSuiteFile(filename) || isLibraryPackage(filename)) return false;
  const named = outermostNamed(sourceCode, node);
  if (!named) return false;
  const hit = cache.get(sourceCode, named.fn);
  if (hit !== undefined) return hit;
  const value = importedByProduction(filename) && usedOnlyByTests(sourceCode, path.resolve(filename), named);
  cache.set(named.fn, value);
  return value;
}

function importedByProduction(file: string): boolean {
  return (packageImporters(file) ?? []).some((importer) => !isTestSuiteFile(importer));
}

function outermostNamed(sourceCode: Services, node: TSESTree.Node): Named | null {
  let found: Named | null = null;
  for (let current: TSESTree.Node | undefined = node; current; current = current.parent) {
    if (!isFunctionNode(current)) continue;
    const parent: TSESTree.Node | undefined = current.parent;
    if (parent?.type === AST_NODE_TYPES.MethodDefinition && parent.value === current) {
      if (parent.computed || parent.kind !== 'method' || parent.key.type !== AST_NODE_TYPES.Identifier ||
        decoratorsOf(parent).length > 0 || !heritageIsProjects(sourceCode, parent.parent.parent)) return null;
      found = { name: parent.key.name, fn: current };
    } else if (current.type === AST_NODE_TYPES.FunctionDeclaration && current.id) {
      found = { name: current.id.name, fn: current };
    } else if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === current && parent.id.type === AST_NODE_TYPES.Identifier) {
      found = { name: parent.id.name, fn: current };
    } else if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === current &&
      parent.left.type === AST_NODE_TYPES.MemberExpression && !parent.left.computed && parent.left.property.type === AST_NODE_TYPES.Identifier) {
      // `exports.seed = () => …`: named by whoever reads the property.
      found = { name: parent.left.property.name, fn: current };
    } else if (parent?.type === AST_NODE_TYPES.Property) {
      return null;
    }
  }
  return found;
}

/** A class whose `extends` and `implements` name nothing from a library (whose code may call its methods by name). */
function heritageIsProjects(sourceCode: Services, cls: TSESTree.Node): boolean {
  if (cls.type !== AST_NODE_TYPES.ClassDeclaration && cls.type !== AST_NODE_TYPES.ClassExpression) return false;
  if (decoratorsOf(cls).length > 0) return false;
  const names = [cls.superClass, ...implementsOf(cls).map((i) => i.expression)];
  return names.every((n) => {
    const ref = n ? resolveReference(sourceCode, n) : null;
    return ref === null || isProjectSpecifier(sourceCode, ref.module);
  });
}

function usedOnlyByTests(sourceCode: Services, file: string, named: Named): boolean {
  const files = packageFilesNaming(file, named.name);
  if (!files) return false;
  let byTests = false;
  for (const other of files) {
    const test = isTestSuiteFile(other);
    const code = other === file ? sourceCode : moduleSourceCode(other);
    if (!code) return false;
    if (!usesName(code, named, other === file)) continue;
    if (!test) return false;
    byTests = true;
  }
  return byTests;
}

const DECLARATION_KEYS: ReadonlySet<AST_NODE_TYPES> = new Set([
  AST_NODE_TYPES.MethodDefinition, AST_NODE_TYPES.TSAbstractMethodDefinition, AST_NODE_TYPES.TSMethodSignature,
  AST_NODE_TYPES.TSPropertySignature, AST_NODE_TYPES.PropertyDefinition, AST_NODE_TYPES.TSAbstractPropertyDefinition,
]);

/** A use of the name other than a declaration: a call, a read, a computed `obj['name']`, a string elsewhere (dispatch by name). */
function usesName(sourceCode: Services, named: Named, own: boolean): boolean {
  let used = false;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (used) return false;
    if (own && node === named.fn) return false;
    const isName = (node.type === AST_NODE_TYPES.Identifier && node.name === named.name) ||
      (node.type === AST_NODE_TYPES.Literal && node.value === named.name);
    if (!isName) return true;
    const parent = node.parent;
    const declaration = parent !== undefined && (
      (DECLARATION_KEYS.has(parent.type) && 'key' in parent && parent.key === node && !('computed' in parent && parent.computed)) ||
      ((parent.type === AST_NODE_TYPES.FunctionDeclaration || parent.type === AST_NODE_TYPES.TSDeclareFunction) && parent.id === node) ||
      (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id === node && own && contains(parent, named.fn)) ||
      (parent.type === AST_NODE_TYPES.MemberExpression && parent.property === node && own &&
        parent.parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.parent.left === parent && parent.parent.right === named.fn));
    if (!declaration) used = true;
    return !used;
  });
  return used;
}
