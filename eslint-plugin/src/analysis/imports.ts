import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { findVariable, nodesAtMatches, skipTransparent, staticPropertyName } from './ast';

/**
 * Where a value comes from: a module and a property path inside it. The default export, the
 * namespace object and `module.exports` are all the empty path, because for CommonJS packages and
 * Node's built-ins they are the same object (`import fs from 'fs'` ≡ `import * as fs` ≡ `require('fs')`).
 * Subpaths that mirror a namespace are folded in: `fs/promises` → `fs` + `promises`.
 */
export interface ModuleRef {
  module: string;
  path: readonly string[];
}

/** Module subpaths that are the same object as a property of the parent module. */
const FOLDED_SUBPATHS: Readonly<Record<string, ModuleRef>> = {
  'fs/promises': { module: 'fs', path: ['promises'] },
  'timers/promises': { module: 'timers', path: ['promises'] },
  'dns/promises': { module: 'dns', path: ['promises'] },
  'stream/promises': { module: 'stream', path: ['promises'] },
  'readline/promises': { module: 'readline', path: ['promises'] },
  'util/types': { module: 'util', path: ['types'] },
};

/** `node:fs` → `fs`; subpaths folded as above; other specifiers unchanged. */
export function normalizeModule(specifier: string): ModuleRef {
  const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  return FOLDED_SUBPATHS[bare] ?? { module: bare, path: [] };
}

type Services = Readonly<TSESLint.SourceCode>;

const variableCache = new WeakMap<TSESLint.Scope.Variable, ModuleRef | null>();
const IN_PROGRESS: ModuleRef = { module: '\0cycle', path: [] };

/**
 * Resolves an expression to the module export it denotes, through every import and require form:
 * `import x from`, `import * as`, named and renamed imports, `require`, destructured `require`,
 * destructuring of an already resolved object, and member access on any of them.
 * Returns null for anything local or unknown — rules then stay silent.
 */
export function resolveReference(sourceCode: Services, node: TSESTree.Node): ModuleRef | null {
  const expr = skipTransparent(node);
  switch (expr.type) {
    case AST_NODE_TYPES.Identifier: {
      const variable = findVariable(sourceCode, expr);
      return variable ? resolveVariable(sourceCode, variable) : null;
    }
    case AST_NODE_TYPES.MemberExpression: {
      const name = staticPropertyName(expr);
      if (name === null) return null;
      const base = resolveReference(sourceCode, expr.object);
      return base ? { module: base.module, path: [...base.path, name] } : null;
    }
    case AST_NODE_TYPES.CallExpression:
      return requiredModule(sourceCode, expr);
    case AST_NODE_TYPES.AwaitExpression: {
      const arg = skipTransparent(expr.argument);
      if (arg.type === AST_NODE_TYPES.ImportExpression) return importedModule(arg);
      return null;
    }
    case AST_NODE_TYPES.ImportExpression:
      return null;
    default:
      return null;
  }
}

/** `require('x')` with the global `require` → `x`. */
export function requiredModule(sourceCode: Services, call: TSESTree.CallExpression): ModuleRef | null {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier || callee.name !== 'require') return null;
  const arg = call.arguments[0];
  if (call.arguments.length !== 1 || arg?.type !== AST_NODE_TYPES.Literal || typeof arg.value !== 'string') {
    return null;
  }
  const variable = findVariable(sourceCode, callee);
  // A `require` declared in the file is someone's own function, not CommonJS's — unless it is
  // `const require = createRequire(import.meta.url)`, which is.
  if (variable && variable.defs.length > 0 && !isCreatedRequire(sourceCode, variable)) return null;
  return normalizeModule(arg.value);
}

/** `const require = createRequire(…)` with `createRequire` from `node:module`. */
function isCreatedRequire(sourceCode: Services, variable: TSESLint.Scope.Variable): boolean {
  const def = variable.defs[0];
  if (variable.defs.length !== 1 || def?.type !== 'Variable' || def.node.parent.kind !== 'const') return false;
  const init = def.node.init ? skipTransparent(def.node.init) : null;
  if (init?.type !== AST_NODE_TYPES.CallExpression) return false;
  return refMatches(resolveReference(sourceCode, init.callee), 'module', 'createRequire');
}

function importedModule(expr: TSESTree.ImportExpression): ModuleRef | null {
  const source = expr.source;
  return source.type === AST_NODE_TYPES.Literal && typeof source.value === 'string'
    ? normalizeModule(source.value)
    : null;
}

export function resolveVariable(sourceCode: Services, variable: TSESLint.Scope.Variable): ModuleRef | null {
  const cached = variableCache.get(variable);
  if (cached !== undefined) return cached === IN_PROGRESS ? null : cached;
  variableCache.set(variable, IN_PROGRESS);
  const result = computeVariable(sourceCode, variable);
  variableCache.set(variable, result);
  return result;
}

function computeVariable(sourceCode: Services, variable: TSESLint.Scope.Variable): ModuleRef | null {
  const def = variable.defs[0];
  if (!def || variable.defs.length !== 1) return null;
  if (def.type === 'ImportBinding') {
    const spec = def.node;
    if (spec.type === AST_NODE_TYPES.TSImportEqualsDeclaration) {
      // TypeScript's `import fs = require('fs')`.
      const reference = spec.moduleReference;
      return reference.type === AST_NODE_TYPES.TSExternalModuleReference &&
        reference.expression.type === AST_NODE_TYPES.Literal &&
        typeof reference.expression.value === 'string'
        ? normalizeModule(reference.expression.value)
        : null;
    }
    const decl = spec.parent;
    if (decl?.type !== AST_NODE_TYPES.ImportDeclaration) return null;
    const base = normalizeModule(decl.source.value);
    if (spec.type === AST_NODE_TYPES.ImportSpecifier) {
      const imported = spec.imported.type === AST_NODE_TYPES.Identifier ? spec.imported.name : String(spec.imported.value);
      return imported === 'default' ? base : { module: base.module, path: [...base.path, imported] };
    }
    return base;
  }
  if (def.type !== 'Variable') return null;
  const declarator = def.node;
  if (!declarator.init) return null;
  // A `let` or `var` reassigned later may hold anything.
  if (declarator.parent.kind !== 'const' && variable.references.some((r) => r.isWrite() && !r.init)) {
    return null;
  }
  const base = resolveReference(sourceCode, declarator.init);
  if (!base) return null;
  const inner = patternPath(declarator.id, def.name);
  return inner ? { module: base.module, path: [...base.path, ...inner] } : null;
}

/** The property path from a destructuring pattern's root to `target`: `{ a: { b: x } }` → `['a','b']`. */
function patternPath(pattern: TSESTree.Node, target: TSESTree.Identifier): string[] | null {
  if (pattern === target) return [];
  switch (pattern.type) {
    case AST_NODE_TYPES.Identifier:
      return null;
    case AST_NODE_TYPES.AssignmentPattern:
      return patternPath(pattern.left, target);
    case AST_NODE_TYPES.ObjectPattern:
      for (const prop of pattern.properties) {
        if (prop.type !== AST_NODE_TYPES.Property) continue;
        let key: string | null = null;
        if (!prop.computed && prop.key.type === AST_NODE_TYPES.Identifier) key = prop.key.name;
        else if (prop.key.type === AST_NODE_TYPES.Literal && typeof prop.key.value === 'string') key = prop.key.value;
        if (key === null) continue;
        const rest = patternPath(prop.value, target);
        if (rest) return [key, ...rest];
      }
      return null;
    default:
      return null;
  }
}

/** True when `ref` is `module`'s export at `path` (module given with or without `node:`). */
export function refMatches(ref: ModuleRef | null, module: string, ...path: string[]): boolean {
  if (!ref) return false;
  const want = normalizeModule(module);
  if (ref.module !== want.module) return false;
  // `default` is the module object itself (CommonJS interop; `(await import('fs')).default`).
  const full = [...want.path, ...path.filter((p) => p !== 'default')];
  const have = ref.path.filter((p) => p !== 'default');
  return have.length === full.length && have.every((p, i) => p === full[i]);
}

const moduleCache = new WeakMap<object, ReadonlySet<string>>();

/**
 * Every module the file imports or requires (normalized). Rules use it for a cheap early exit:
 * a file that never mentions `async-mutex` has no async-mutex locks to check.
 */
export function importedModules(sourceCode: Services): ReadonlySet<string> {
  const hit = moduleCache.get(sourceCode);
  if (hit) return hit;
  const modules = new Set<string>();
  for (const stmt of sourceCode.ast.body) {
    if (stmt.type === AST_NODE_TYPES.ImportDeclaration) modules.add(normalizeModule(stmt.source.value).module);
    // TypeScript's `import fs = require('fs')`: its `require` is a keyword, not a call the search below finds.
    const equals = stmt.type === AST_NODE_TYPES.ExportNamedDeclaration ? stmt.declaration : stmt;
    if (
      equals?.type === AST_NODE_TYPES.TSImportEqualsDeclaration &&
      equals.moduleReference.type === AST_NODE_TYPES.TSExternalModuleReference &&
      equals.moduleReference.expression.type === AST_NODE_TYPES.Literal &&
      typeof equals.moduleReference.expression.value === 'string'
    ) {
      modules.add(normalizeModule(equals.moduleReference.expression.value).module);
    }
  }
  // require() and import() may appear anywhere: found by a text search, checked against the tree.
  for (const node of nodesAtMatches(sourceCode, /(?<![\w$])(?:require|import)\s*\(/g)) {
    let source: TSESTree.Node | undefined;
    if (node.type === AST_NODE_TYPES.ImportExpression) {
      source = node.source;
    } else if (node.type === AST_NODE_TYPES.Identifier && node.name === 'require') {
      const callee = node.parent?.type === AST_NODE_TYPES.MemberExpression && node.parent.property === node ? node.parent : node;
      if (callee.parent?.type === AST_NODE_TYPES.CallExpression && callee.parent.callee === callee) source = callee.parent.arguments[0];
    }
    if (source?.type === AST_NODE_TYPES.Literal && typeof source.value === 'string') modules.add(normalizeModule(source.value).module);
    else if (source?.type === AST_NODE_TYPES.TemplateLiteral && source.expressions.length === 0) {
      modules.add(normalizeModule(source.quasis[0]!.value.cooked ?? '').module);
    }
  }
  moduleCache.set(sourceCode, modules);
  return modules;
}
