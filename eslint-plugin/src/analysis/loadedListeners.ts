import * as path from 'node:path';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { entryReach, nearestPackage, packageFilesNaming, packageImporters, pathKind, readText } from '../project';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import type { CallbackRegistration } from './callbackSites';
import { callbackRegistration } from './callbackSites';
import { resolveReference } from './imports';
import { exportedNames } from './knownCallers';
import { lintGeneration, ModuleAnswers, moduleSourceCode, sourceFileOf } from './localModules';
import type { CallPattern } from './promises';
import { matchesAllowList } from './promises';

type Services = Readonly<TSESLint.SourceCode>;

/** A registration, in a loader file, of a module's export as a listener whose promise is dropped. */
export interface LoadedListener {
  /** The loader's `SourceCode` and path. */
  sourceCode: Services;
  file: string;
  /** `client.on(event.name, event.bind(null, client))`, `client.on(name, (...a) => event.execute(...a))`. */
  call: TSESTree.CallExpression;
  registration: CallbackRegistration;
}

/**
 * A module found by a computed `require` over a folder, in a file of its package that lists that
 * folder (`readdirSync`): `require(\`../events/${dir}/${file}\`)` or `require(path.join(__dirname,
 * 'events', file))`, with as many computed path segments as lie between the folder and `fn`'s file;
 * for an ES module, `const loaded = await import(…)` the same way, its exports read as members
 * (`loaded.default`, directly or through a `const`).
 * The registrations (listeners, timers: see `callbackRegistration`) that loader makes of the export
 * `fn` is: the module's own export (`event`, `event.bind(null, client)`), a member (`event.execute`),
 * or a plain function that returns or drops that export's call (`(...args) => event.execute(...args)`).
 * The loader pattern of the discord.js guide and many bots; empty when nothing is known.
 */
export function loadedListeners(sourceCode: Services, fn: FunctionNode): readonly LoadedListener[] {
  const file = sourceFileOf(sourceCode);
  // `require` loads CommonJS exports and `import()` an ES module's; a file with neither skips the search below.
  const kind = file === null ? null : exportKind(sourceCode);
  const names = kind === null ? null : exportedNames(sourceCode, fn);
  if (file === null || names === null || names.size === 0) return [];
  // A module a loader finds by listing its folder is one no running code imports by name; asking
  // that first keeps the text search for loaders off nearly every file.
  const importers = packageImporters(file);
  if (importers === null || importers.some((importer) => entryReach(importer).kind !== 'one-shot')) return [];
  const found: LoadedListener[] = [];
  for (const loader of listingFiles(file)) {
    if (loader === file) continue;
    const loaderCode = moduleSourceCode(loader);
    if (!loaderCode) continue;
    for (const load of folderLoads(loaderCode, loader)) {
      if (load.kind !== kind) continue;
      const rest = path.relative(load.folder, file);
      if (rest.startsWith('..') || path.isAbsolute(rest) || rest.split(path.sep).length !== load.segments) continue;
      for (const use of load.uses) {
        if (names.has(use.exportName)) found.push({ sourceCode: loaderCode, file: loader, call: use.call, registration: use.registration });
      }
    }
  }
  return found;
}

/** The first of `loadedListeners` that no allow-listed registration (`allowed`, asked in the loader's file) covers. */
export function ignoringLoader(sourceCode: Services, fn: FunctionNode, allowed: readonly CallPattern[]): LoadedListener | null {
  return loadedListeners(sourceCode, fn).find((l) => !matchesAllowList(l.sourceCode, l.call, allowed)) ?? null;
}

const commonJs = new WeakMap<Services, boolean>();

/** How a module exports: `require` for CommonJS (`module.exports`, `exports.x`), `import` for `export` declarations. */
function exportKind(sourceCode: Services): LoadKind | null {
  if (readsCommonJsExports(sourceCode)) return 'require';
  const declares = sourceCode.ast.body.some((s) => s.type === AST_NODE_TYPES.ExportDefaultDeclaration || s.type === AST_NODE_TYPES.ExportNamedDeclaration);
  return declares ? 'import' : null;
}

/** Does the module assign `module.exports` or `exports.x`: `module`/`exports` read without a declaration of its own? */
function readsCommonJsExports(sourceCode: Services): boolean {
  const known = commonJs.get(sourceCode);
  if (known !== undefined) return known;
  const scope = sourceCode.scopeManager?.globalScope ?? null;
  // Unresolved, or a global the configuration declares (`sourceType: 'commonjs'`).
  const reads = (name: string): boolean => scope !== null && (scope.through.some((ref) => ref.identifier.name === name) ||
    (scope.set.get(name)?.defs.length === 0 && (scope.set.get(name)?.references.length ?? 0) > 0));
  const result = reads('module') || reads('exports');
  commonJs.set(sourceCode, result);
  return result;
}

/** `require(` or `import(` with anything but a string literal: the only files worth parsing as loaders. */
const COMPUTED_LOAD = /\b(?:require|import)\s*\(\s*[^'"\s)]/;

const listings = new Map<string, { generation: number; files: readonly string[] }>();

/** The files of `file`'s package that list a folder (`readdirSync`, `readdir`), once per package and lint generation. */
function listingFiles(file: string): readonly string[] {
  const key = nearestPackage(file).manifest ?? path.dirname(file);
  const hit = listings.get(key);
  if (hit && hit.generation === lintGeneration()) return hit.files;
  const files = [...new Set([...packageFilesNaming(file, 'readdirSync') ?? [], ...packageFilesNaming(file, 'readdir') ?? []])]
    .filter((f) => COMPUTED_LOAD.test(readText(f) ?? ''));
  listings.set(key, { generation: lintGeneration(), files });
  return files;
}

type LoadKind = 'require' | 'import';

/** A computed `require` or `import()` over `folder` in a loader, and what it registers of the loaded module. */
interface FolderLoad {
  kind: LoadKind;
  folder: string;
  /** Path segments the computed part spans: `${dir}/${file}` is two. */
  segments: number;
  uses: { exportName: string; call: TSESTree.CallExpression; registration: CallbackRegistration }[];
}

const loads = new ModuleAnswers<Services, readonly FolderLoad[]>();

function folderLoads(sourceCode: Services, file: string): readonly FolderLoad[] {
  const known = loads.get(sourceCode, sourceCode);
  if (known) return known;
  const found: FolderLoad[] = [];
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    const load = loadOf(sourceCode, node);
    if (!load) return true;
    const target = pathValue(sourceCode, load.specifier, path.dirname(file), 0);
    if (target?.kind !== 'computed' || target.folder.split(path.sep).includes('node_modules') || pathKind(target.folder) !== 'directory') return true;
    // `const event = require(…)`, `const event = await import(…)`.
    const declarator = load.value.parent;
    if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== load.value || declarator.id.type !== AST_NODE_TYPES.Identifier) return true;
    found.push({ kind: load.kind, folder: target.folder, segments: target.segments, uses: registeredUses(sourceCode, declarator.id, load.kind) });
    return true;
  });
  loads.set(sourceCode, found);
  return found;
}

/** `require(x)` (not a local `require`) or `await import(x)`: the specifier, and the expression whose value is the module. */
function loadOf(sourceCode: Services, node: TSESTree.Node): { kind: LoadKind; specifier: TSESTree.Node; value: TSESTree.Node } | null {
  if (node.type === AST_NODE_TYPES.ImportExpression) {
    const awaited = node.parent;
    return awaited.type === AST_NODE_TYPES.AwaitExpression && awaited.argument === node ? { kind: 'import', specifier: node.source, value: awaited } : null;
  }
  if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.Identifier || node.callee.name !== 'require' ||
    node.arguments.length !== 1 || findVariable(sourceCode, node.callee)?.defs.length) {
    return null;
  }
  const [arg] = node.arguments;
  return arg && arg.type !== AST_NODE_TYPES.SpreadElement ? { kind: 'require', specifier: arg, value: node } : null;
}

type PathValue = { kind: 'static'; value: string } | { kind: 'computed'; folder: string; segments: number };

const MAX_DEPTH = 4;

/**
 * What a path expression is: a string known here (`__dirname`, literals, consts holding them,
 * `path.join`/`path.resolve` of those), or a folder every value lands in with the number of
 * computed segments after it. Relative strings are taken from the loader's folder, as `require` does.
 */
function pathValue(sourceCode: Services, node: TSESTree.Node, dir: string, depth: number): PathValue | null {
  const expr = skipTransparent(node);
  if (depth > MAX_DEPTH) return null;
  if (expr.type === AST_NODE_TYPES.Literal) return typeof expr.value === 'string' ? { kind: 'static', value: expr.value } : null;
  if (expr.type === AST_NODE_TYPES.TemplateLiteral) {
    // The fixed text up to the first unknown part: `../events/`, `${__dirname}/../events/`.
    let known = expr.quasis[0]?.value.cooked ?? '';
    let i = 0;
    for (; i < expr.expressions.length; i++) {
      const part = expr.expressions[i];
      const value = part ? pathValue(sourceCode, part, dir, depth + 1) : null;
      if (value?.kind !== 'static') break;
      known += value.value + (expr.quasis[i + 1]?.value.cooked ?? '');
    }
    if (i === expr.expressions.length) return { kind: 'static', value: known };
    const folder = known.slice(0, known.lastIndexOf('/') + 1);
    if (!path.isAbsolute(folder) && !/^\.\.?\//.test(folder)) return null;
    // What follows the folder, with each unknown part as one name: `${dir}/${file}` is two segments.
    const rest = `${known.slice(folder.length)}X${expr.quasis.slice(i + 1).map((q) => q.value.cooked ?? '').join('X')}`;
    return { kind: 'computed', folder: path.resolve(dir, folder), segments: rest.split('/').length };
  }
  if (expr.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, expr);
    // CommonJS's `__dirname` is no declared global: unresolved, or declared without a definition.
    if (!variable?.defs.length) return expr.name === '__dirname' ? { kind: 'static', value: dir } : null;
    const def = variable.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.parent.kind !== 'const' || def.node.id !== def.name || !def.node.init) return null;
    return pathValue(sourceCode, def.node.init, dir, depth + 1);
  }
  if (expr.type === AST_NODE_TYPES.MemberExpression) {
    const name = staticPropertyName(expr);
    // ES modules have no `__dirname`: `import.meta.dirname` is the same folder.
    if (expr.object.type === AST_NODE_TYPES.MetaProperty && expr.object.meta.name === 'import' && name === 'dirname') return { kind: 'static', value: dir };
    // `pathToFileURL(file).href`, the portable specifier for `import()` of a path.
    const call = skipTransparent(expr.object);
    const ref = name === 'href' && call.type === AST_NODE_TYPES.CallExpression ? resolveReference(sourceCode, call.callee) : null;
    const [arg] = call.type === AST_NODE_TYPES.CallExpression ? call.arguments : [];
    if (ref?.module !== 'url' || ref.path[ref.path.length - 1] !== 'pathToFileURL' || !arg || arg.type === AST_NODE_TYPES.SpreadElement) return null;
    return pathValue(sourceCode, arg, dir, depth + 1);
  }
  if (expr.type !== AST_NODE_TYPES.CallExpression) return null;
  const ref = resolveReference(sourceCode, expr.callee);
  const joins = ref?.module === 'path' && ref.path.length === 1 && (ref.path[0] === 'join' || ref.path[0] === 'resolve');
  if (!joins || expr.arguments.length === 0) return null;
  let known: string | null = null;
  for (const [i, arg] of expr.arguments.entries()) {
    const value = arg.type === AST_NODE_TYPES.SpreadElement ? null : pathValue(sourceCode, arg, dir, depth + 1);
    if (value?.kind === 'static') {
      known = known === null ? value.value : path.join(known, value.value);
      continue;
    }
    // Each argument after the first unknown one is at least one segment; an `a/b` literal is more.
    let segments = value?.kind === 'computed' ? value.segments : 1;
    for (const later of expr.arguments.slice(i + 1)) {
      segments += later.type === AST_NODE_TYPES.Literal && typeof later.value === 'string' ? later.value.split('/').filter(Boolean).length : 1;
    }
    if (value?.kind === 'computed') return i === 0 ? { kind: 'computed', folder: value.folder, segments } : null;
    // A relative start would be taken from the working folder (`resolve`) or as a package name (`join`).
    return known !== null && path.isAbsolute(known) ? { kind: 'computed', folder: known, segments } : null;
  }
  return known === null ? null : { kind: 'static', value: known };
}

/**
 * Where the loaded module `id` (or a member of it) is handed to a registration that drops promises.
 * An ES module's namespace is no function: only its members count there.
 */
function registeredUses(sourceCode: Services, id: TSESTree.Identifier, kind: LoadKind): FolderLoad['uses'] {
  const uses: FolderLoad['uses'] = [];
  const variable = findVariable(sourceCode, id);
  for (const reference of variable?.references ?? []) {
    if (!reference.isRead()) continue;
    const use = reference.identifier as TSESTree.Identifier;
    const member = use.parent.type === AST_NODE_TYPES.MemberExpression && use.parent.object === use ? use.parent : null;
    const memberName = member ? staticPropertyName(member) : null;
    if (kind === 'import' && (memberName === null || memberName === 'bind')) continue;
    // `event.bind(null, client)` is the default export bound; `event.execute` a member.
    const exportName = memberName === null || memberName === 'bind' ? 'default' : memberName;
    const value = memberName === null ? use : memberName === 'bind' ? use : (member as TSESTree.MemberExpression);
    for (const handed of handedValues(sourceCode, value)) {
      const registered = registrationOf(sourceCode, handed);
      if (registered) uses.push({ exportName, call: registered.call, registration: registered.registration });
    }
  }
  return uses;
}

/** `value` handed on where it is read, or, kept in a `const` (`const execute = loaded.default`), wherever that is read. */
function handedValues(sourceCode: Services, value: TSESTree.Node): TSESTree.Node[] {
  const declarator = value.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== value || declarator.id.type !== AST_NODE_TYPES.Identifier ||
    declarator.parent.kind !== 'const') {
    const handed = handedValue(value);
    return handed ? [handed] : [];
  }
  const alias = findVariable(sourceCode, declarator.id);
  return (alias?.references ?? []).filter((r) => r.isRead()).flatMap((r) => {
    const handed = handedValue(r.identifier as TSESTree.Identifier);
    return handed ? [handed] : [];
  });
}

/**
 * The argument that passes `value` on as a callback: `value` itself, `value.bind(…)`, or a plain
 * (not async) function whose body is `value(…)`, returns it, or drops it as a statement.
 */
function handedValue(value: TSESTree.Node): TSESTree.Node | null {
  let node: TSESTree.Node = value;
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === node && staticPropertyName(parent) === 'bind' &&
    parent.parent.type === AST_NODE_TYPES.CallExpression && parent.parent.callee === parent) {
    node = parent.parent;
  }
  const call = node.parent;
  if (node === value && call?.type === AST_NODE_TYPES.CallExpression && call.callee === node) {
    return wrapperOf(call);
  }
  return node;
}

/** The plain function `(...args) => event.execute(...args)` that returns or drops `call`. */
function wrapperOf(call: TSESTree.CallExpression): FunctionNode | null {
  const holder = call.parent;
  if (isFunctionNode(holder) && holder.body === call) return holder.async ? null : holder;
  const statement = holder?.type === AST_NODE_TYPES.ExpressionStatement || holder?.type === AST_NODE_TYPES.ReturnStatement ? holder : null;
  const block = statement?.parent;
  const fn = block?.type === AST_NODE_TYPES.BlockStatement ? block.parent : null;
  return isFunctionNode(fn) && !fn.async ? fn : null;
}

function registrationOf(sourceCode: Services, arg: TSESTree.Node): { call: TSESTree.CallExpression; registration: CallbackRegistration } | null {
  const call = arg.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee === arg) return null;
  const registration = callbackRegistration(sourceCode, call);
  const index = call.arguments.indexOf(arg as TSESTree.CallExpressionArgument);
  return registration && !registration.implementation && index >= registration.callbackIndex ? { call, registration } : null;
}
