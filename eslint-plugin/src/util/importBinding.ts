import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '../analysis/nodeTypes';
import { normalizeModule, requiredModule, resolveVariable } from '../analysis/imports';

type SourceCode = Readonly<TSESLint.SourceCode>;

export interface Binding {
  /** Expression text that denotes the export at the use site: `readFile`, `fs.promises.readFile`. */
  text: string;
  /** An edit that makes `text` valid, or null when an existing import already does. */
  edit: ImportEdit | null;
}

export interface ImportEdit {
  /** Insert `text` at `at`. */
  at: number;
  text: string;
  /** True for a whole new statement, newline included (several are joined into one insertion). */
  statement: boolean;
}

/**
 * Makes `module`'s export `name` reachable at `use`: reuses an import or require the file already
 * has (named, namespace, default, or a parent module object such as `fs` for `fs/promises`),
 * otherwise plans a new `import` (ESM) or `require` (CommonJS) next to the existing ones.
 * Returns null when no free local name can be found.
 */
export function bindingFor(sourceCode: SourceCode, use: TSESTree.Node, module: string, name: string): Binding | null {
  const want = normalizeModule(module);
  const full = [...want.path, name];
  let best: { text: string; rest: number } | null = null;
  for (const variable of topLevelVariables(sourceCode)) {
    const ref = resolveVariable(sourceCode, variable);
    if (!ref || ref.module !== want.module || ref.path.length > full.length) continue;
    if (!ref.path.every((p, i) => p === full[i])) continue;
    if (!visibleAs(sourceCode, use, variable)) continue;
    const rest = full.slice(ref.path.length);
    if (!best || rest.length < best.rest) best = { text: [variable.name, ...rest].join('.'), rest: rest.length };
  }
  if (best) return { text: best.text, edit: null };

  const local = [name, `${name}Async`].find((candidate) => isFree(sourceCode, use, candidate));
  if (!local) return null;
  const specifier = builtinStyle(sourceCode, module);
  const commonJs = isCommonJs(sourceCode);
  const extend = extendExisting(sourceCode, specifier, local === name ? name : `${name}${commonJs ? ':' : ' as'} ${local}`, commonJs);
  if (extend) return { text: local, edit: extend };
  const clause = local === name ? name : commonJs ? `${name}: ${local}` : `${name} as ${local}`;
  const text = commonJs
    ? `const { ${clause} } = require('${specifier}');`
    : `import { ${clause} } from '${specifier}';`;
  const place = insertionPoint(sourceCode, commonJs);
  return { text: local, edit: { at: place.at, text: place.after ? `\n${text}` : `${text}\n`, statement: true } };
}

/** Joins edits: new statements planned at the same place become one insertion, each on its own line. */
export function applyImportEdits(fixer: TSESLint.RuleFixer, edits: readonly ImportEdit[]): TSESLint.RuleFix[] {
  const byPlace = new Map<number, ImportEdit[]>();
  for (const edit of edits) byPlace.set(edit.at, [...(byPlace.get(edit.at) ?? []), edit]);
  const fixes: TSESLint.RuleFix[] = [];
  for (const [at, group] of byPlace) {
    fixes.push(fixer.insertTextAfterRange([at, at], group.map((e) => e.text).join('')));
  }
  return fixes;
}

function topLevelVariables(sourceCode: SourceCode): TSESLint.Scope.Variable[] {
  const global = sourceCode.scopeManager?.globalScope;
  if (!global) return [];
  const module = global.childScopes.find((s) => s.type === 'module');
  return [...global.variables, ...(module?.variables ?? [])].filter((v) => v.defs.length > 0);
}

/** The name `variable.name` at `use` refers to `variable` itself, not a shadowing local. */
function visibleAs(sourceCode: SourceCode, use: TSESTree.Node, variable: TSESLint.Scope.Variable): boolean {
  return lookup(sourceCode, use, variable.name) === variable;
}

function lookup(sourceCode: SourceCode, use: TSESTree.Node, name: string): TSESLint.Scope.Variable | null {
  let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(use);
  while (scope) {
    const found = scope.set.get(name);
    if (found) return found;
    scope = scope.upper;
  }
  return null;
}

/** No declaration of `name` in the file's top scope or on the way to `use`, and no global read of it. */
function isFree(sourceCode: SourceCode, use: TSESTree.Node, name: string): boolean {
  if (lookup(sourceCode, use, name)) return false;
  for (const v of topLevelVariables(sourceCode)) if (v.name === name) return false;
  const global = sourceCode.scopeManager?.globalScope;
  return !(global?.through ?? []).some((ref) => ref.identifier.name === name);
}

/** `node:` prefix for a built-in when the file writes its built-ins that way (or has none yet). */
function builtinStyle(sourceCode: SourceCode, module: string): string {
  if (!module.startsWith('node:')) return module;
  const specifiers = moduleSpecifiers(sourceCode);
  const bare = specifiers.some((s) => !s.startsWith('node:') && BUILTINS.has(normalizeModule(s).module));
  const prefixed = specifiers.some((s) => s.startsWith('node:'));
  return bare && !prefixed ? module.slice(5) : module;
}

const BUILTINS = new Set(['fs', 'child_process', 'crypto', 'zlib', 'util', 'path', 'os', 'stream', 'events', 'http', 'https', 'url', 'timers']);

/** Every module specifier the file writes, in imports and in `require(…)` / `import(…)` anywhere. */
function moduleSpecifiers(sourceCode: SourceCode): string[] {
  const result: string[] = [];
  for (const stmt of sourceCode.ast.body) {
    if (stmt.type === AST_NODE_TYPES.ImportDeclaration) result.push(stmt.source.value);
  }
  const tokens = sourceCode.ast.tokens ?? [];
  for (let i = 0; i + 2 < tokens.length; i++) {
    const t = tokens[i] as TSESTree.Token;
    const arg = tokens[i + 2] as TSESTree.Token;
    if ((t.value === 'require' || t.value === 'import') && tokens[i + 1]?.value === '(' && arg.type === 'String') {
      result.push(arg.value.slice(1, -1));
    }
  }
  return result;
}

function topLevelRequires(stmt: TSESTree.ProgramStatement): TSESTree.CallExpression[] {
  if (stmt.type !== AST_NODE_TYPES.VariableDeclaration) return [];
  const calls: TSESTree.CallExpression[] = [];
  for (const d of stmt.declarations) {
    let init = d.init;
    while (init?.type === AST_NODE_TYPES.MemberExpression) init = init.object;
    if (init?.type === AST_NODE_TYPES.CallExpression && init.callee.type === AST_NODE_TYPES.Identifier && init.callee.name === 'require') {
      calls.push(init);
    }
  }
  return calls;
}

/** A file with no `import` declarations that uses `require`, or that is parsed as a script. */
export function isCommonJs(sourceCode: SourceCode): boolean {
  const body = sourceCode.ast.body;
  if (body.some((s) => s.type === AST_NODE_TYPES.ImportDeclaration || s.type === AST_NODE_TYPES.ExportNamedDeclaration ||
    s.type === AST_NODE_TYPES.ExportDefaultDeclaration || s.type === AST_NODE_TYPES.ExportAllDeclaration)) {
    return false;
  }
  if (sourceCode.ast.sourceType === 'script') return true;
  return (sourceCode.ast.tokens ?? []).some((t, i, all) => t.value === 'require' && all[i + 1]?.value === '(');
}

/** Adds the name to an existing `import { … } from specifier` or `const { … } = require(specifier)`. */
function extendExisting(sourceCode: SourceCode, specifier: string, clause: string, commonJs: boolean): ImportEdit | null {
  const target = normalizeModule(specifier);
  for (const stmt of sourceCode.ast.body) {
    if (!commonJs && stmt.type === AST_NODE_TYPES.ImportDeclaration && stmt.importKind !== 'type') {
      const same = normalizeModule(stmt.source.value);
      const named = stmt.specifiers.filter((s) => s.type === AST_NODE_TYPES.ImportSpecifier);
      const last = named[named.length - 1];
      if (same.module === target.module && same.path.join('/') === target.path.join('/') && last &&
        named.length === stmt.specifiers.length) {
        return { at: last.range[1], text: `, ${clause}`, statement: false };
      }
    }
    if (commonJs && stmt.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const d of stmt.declarations) {
        if (d.id.type !== AST_NODE_TYPES.ObjectPattern || d.init?.type !== AST_NODE_TYPES.CallExpression) continue;
        const ref = requiredModule(sourceCode, d.init);
        const last = d.id.properties[d.id.properties.length - 1];
        if (ref && last && last.type === AST_NODE_TYPES.Property && ref.module === target.module &&
          ref.path.join('/') === target.path.join('/')) {
          return { at: last.range[1], text: `, ${clause}`, statement: false };
        }
      }
    }
  }
  return null;
}

/** After the last top-level import (or require declaration); otherwise before the first statement. */
function insertionPoint(sourceCode: SourceCode, commonJs: boolean): { at: number; after: boolean } {
  const body = sourceCode.ast.body;
  let last: TSESTree.Node | null = null;
  for (const stmt of body) {
    if (commonJs ? topLevelRequires(stmt).length > 0 : stmt.type === AST_NODE_TYPES.ImportDeclaration) last = stmt;
  }
  if (last) return { at: last.range[1], after: true };
  const first = body.find((s) => !(s.type === AST_NODE_TYPES.ExpressionStatement && typeof s.directive === 'string'));
  return first ? { at: first.range[0], after: false } : { at: sourceCode.text.length, after: true };
}
