import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, isFunctionNode, isNullOrUndefined, skipTransparent, staticPropertyName, walk } from './ast';
import { resolveReference } from './imports';
import { isProjectSpecifier, lintGeneration, localExport, moduleSourceCode, scannedLocalImports, sourceFileOf } from './localModules';
import { conventionCalls } from './conventionLoads';
import { bareName, conventionLoaders, declaresDependency, entryReach, nearestPackage, packageFilesNaming, packageImporters, readText, resolveImport } from '../project';

type Services = Readonly<TSESLint.SourceCode>;

/** A call of an exported function (or `new C()` of a class whose constructor is asked about), in the file (`sourceCode`) where it is made. */
export interface ExportCallSite {
  sourceCode: Services;
  call: TSESTree.CallExpression | TSESTree.NewExpression;
}

/** More importers than this and the question is left open: the answer would cost a parse of each. */
const MAX_IMPORTERS = 16;
/** `module.exports = fn` and `export default fn` are both what an importer's default binding gets. */
const DEFAULT = 'default';

const cache = new WeakMap<FunctionNode, { generation: number; sites: readonly ExportCallSite[] | null }>();
const useCache = new WeakMap<FunctionNode, { generation: number; uses: readonly ExportUse[] | null }>();

/** A read of an exported function in a file that imports it (`one` in `router.get('/x', one)`), in that file (`sourceCode`). */
export interface ExportUse {
  sourceCode: Services;
  node: TSESTree.Node;
}

/** What is collected at each use of an export: only calls (`knownCallers`), or every read (`importerUses`). */
type Collect = 'calls' | 'uses';

/**
 * Every call of the exported function `fn`, in its own file and in the files of its package that
 * import it: `import { start } from './server'` then `await start()`, `require('./app')()`,
 * `import('./app').then((m) => m.default())`. Null when some use is not a plain call (passed as a
 * value), when the importers are not known (no package, too many), or when `fn` is
 * not exported or never called: then nothing is known about who runs it. Importers that are
 * one-shot code are left out (whatever they call, they call outside a serving process): an
 * export only they name has no call site, and an empty list. A class's constructor is called by
 * `new C()`; an instance method by `this.m()` in its class's other methods, when neither its file
 * nor an importer names `.m` anywhere else (a caller holding the instance in a file that does not
 * import the class stays unseen). A function re-exported by a barrel (`export * from './load'`) is
 * also called from the barrel's importers, two barrels deep. A default export is also called by
 * the files that load its file by convention (`conventionSites`).
 */
export function knownCallers(sourceCode: Services, fn: FunctionNode): readonly ExportCallSite[] | null {
  const generation = lintGeneration();
  const hit = cache.get(fn);
  if (hit && hit.generation === generation) return hit.sites;
  const found = computeCallers(sourceCode, fn);
  const sites = found && found.map((s) => ({ sourceCode: s.sourceCode, call: s.node })).filter((s): s is ExportCallSite => isCall(s.call));
  cache.set(fn, { generation, sites });
  return sites;
}

/**
 * Every read of the exported function `fn` (not a class's method) in the files of its package
 * that import it, whatever it is used for: `router.get('/x', one)` hands it to a router. Its own
 * file's uses are not included. Null when the importers are not known (no package, too many, an
 * import handed on), or when `fn` is not exported. One-shot importers are left out, as for
 * `knownCallers`.
 */
export function importerUses(sourceCode: Services, fn: FunctionNode): readonly ExportUse[] | null {
  const generation = lintGeneration();
  const hit = useCache.get(fn);
  if (hit && hit.generation === generation) return hit.uses;
  const file = sourceFileOf(sourceCode);
  const found = file === null || instanceMethodOf(fn) || staticMethodOf(fn) ? null : exportedUses(sourceCode, fn);
  let uses: ExportUse[] | null = null;
  if (file !== null && found && found.names.size > 0) {
    uses = [];
    const named = [...found.names].filter((n) => n !== DEFAULT);
    if (importerCalls(file, found.names, named, found.names.has(DEFAULT), null, 0, uses, 'uses') === null) uses = null;
  }
  useCache.set(fn, { generation, uses });
  return uses;
}

const unreachedCache = new WeakMap<FunctionNode, { generation: number; unreached: boolean }>();

/**
 * Does nothing in its package run the exported function `fn`? Its own file names it only to
 * export it, and the file has importers, every one of them read: each holds the module as an
 * object it only reads other members of (`tools.hash()`), destructures other names from it, or
 * belongs to one-shot code. `module.exports = { hash, check, hashRandom }` where the one route
 * file calls `tools.hash()` and `tools.check()`: `hashRandom` runs nowhere. False whenever a
 * use could be unseen: the module object handed on or indexed (`tools[name]`), re-exported, an
 * importer whose import the parse does not see (a template-literal `require`), a file nothing imports
 * (a folder loaded by computed `require`), an entry other packages load, a default export. The
 * package's import graph comes from one scan of its files, so the answer is the same whichever
 * file is linted first.
 */
export function isUnreachedExport(sourceCode: Services, fn: FunctionNode): boolean {
  const generation = lintGeneration();
  const hit = unreachedCache.get(fn);
  if (hit && hit.generation === generation) return hit.unreached;
  const unreached = computeUnreached(sourceCode, fn);
  unreachedCache.set(fn, { generation, unreached });
  return unreached;
}

function computeUnreached(sourceCode: Services, fn: FunctionNode): boolean {
  const file = sourceFileOf(sourceCode);
  if (file === null || instanceMethodOf(fn) || staticMethodOf(fn)) return false;
  const found = exportedUses(sourceCode, fn);
  if (!found || found.names.size === 0 || found.names.has(DEFAULT) || found.ownUses.length > 0) return false;
  // `exports.hash()`, `this.hash()` in a sibling method of the exported object: a call by member name in its own file.
  if ([...found.names].some((name) => memberPattern(name).test(sourceCode.text))) return false;
  const reach = entryReach(file);
  if (reach.kind !== 'long-lived' || reach.entry) return false;
  const importers = packageImporters(file);
  if (importers === null || importers.length === 0) return false;
  const serving = importers.filter((importer) => entryReach(importer).kind !== 'one-shot');
  if (serving.length > MAX_IMPORTERS) return false;
  return serving.every((importer) => {
    const other = moduleSourceCode(importer);
    if (!other) return false;
    const reexported = new Set<string>();
    const sawImport = { value: false };
    const uses = callsFrom(other, importer, file, found.names, null, reexported, 'uses', sawImport);
    return sawImport.value && uses !== null && uses.length === 0 && reexported.size === 0;
  });
}

function memberPattern(name: string): RegExp {
  return new RegExp(`\\.\\s*${name.replace(/[$]/g, '\\$')}\\b`);
}

function isCall(node: TSESTree.Node): node is TSESTree.CallExpression | TSESTree.NewExpression {
  return node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression;
}

function computeCallers(sourceCode: Services, fn: FunctionNode): readonly ExportUse[] | null {
  const file = sourceFileOf(sourceCode);
  const instance = instanceMethodOf(fn);
  if (instance) return file === null ? null : instanceCalls(sourceCode, file, instance)?.map((s) => ({ sourceCode: s.sourceCode, node: s.call })) ?? null;
  const method = staticMethodOf(fn);
  const exported = file === null ? null : method ? classExportsOf(sourceCode, method) : exportsOf(sourceCode, fn);
  if (file === null || exported === null) return null;
  const sites: ExportUse[] = [];
  for (const call of exported.ownCalls) sites.push({ sourceCode, node: call });
  // A function of this file that it never exports: its own calls are all there are.
  if (exported.names.size === 0) return sites.length > 0 ? sites : null;
  // One-shot importers (tests, scripts) run nothing in a serving process, and a file whose text
  // never names the export cannot call it: neither needs a parse.
  const named = method ? [method.name] : [...exported.names].filter((n) => n !== DEFAULT);
  // Any importer may construct the class, or hand it on, under a name of its own choosing.
  const everyImporter = method ? method.name === CONSTRUCTOR : exported.names.has(DEFAULT);
  const seen = importerCalls(file, exported.names, named, everyImporter, method?.name ?? null, 0, sites, 'calls');
  if (seen === null) return null;
  const loaded = method || !exported.names.has(DEFAULT) ? false : conventionSites(file, sites);
  if (loaded === null) return null;
  // Only one-shot code uses it (a test, a script): known, and none of it serves.
  return sites.length > 0 || seen || loaded ? sites : null;
}

/**
 * Adds the calls of `file`'s default export made by the files that load it by convention
 * (`conventionLoaders`: `import(pathToFileURL(path.resolve(module.path, 'bootstrap.js')))` then
 * `.default(context)`). Null when one of them holds the module in a way that is not bound; else
 * whether a one-shot loader names it. A file no loader names keeps what its importers say.
 */
function conventionSites(file: string, sites: ExportUse[]): boolean | null {
  const loaders = conventionLoaders(file);
  if (loaders === null || loaders.length === 0) return false;
  const serving = loaders.filter((loader) => entryReach(loader).kind !== 'one-shot');
  if (serving.length > MAX_IMPORTERS) return null;
  for (const loader of serving) {
    const other = moduleSourceCode(loader);
    if (!other) return null;
    const calls = conventionCalls(other, file);
    if (calls === null) return null;
    for (const node of calls) sites.push({ sourceCode: other, node });
  }
  return serving.length < loaders.length;
}

/** Barrels re-exporting a function (`export * from './load'` in `util/index.ts`) followed this deep. */
const MAX_REEXPORTS = 2;
const EXPORT_ALL = /\bexport\s*\*\s*from\b/;

/**
 * Adds to `sites` the calls that the importers of `file` make of its exports `names`, through
 * barrels that re-export them. Null when some use is unknown; else whether a one-shot importer
 * names them (so an empty `sites` still means known).
 */
function importerCalls(
  file: string,
  names: ReadonlySet<string>,
  named: readonly string[],
  everyImporter: boolean,
  method: string | null,
  depth: number,
  sites: ExportUse[],
  collect: Collect,
): boolean | null {
  const importers = packageImporters(file);
  if (importers === null) return null;
  // `export * from` passes every name on without naming it.
  const mentioning = importers.filter((importer) => {
    const text = readText(importer) ?? '';
    return everyImporter || mentionsAny(text, named) || (method === null && EXPORT_ALL.test(text));
  });
  const candidates = mentioning.filter((importer) => entryReach(importer).kind !== 'one-shot');
  if (candidates.length > MAX_IMPORTERS) return null;
  let oneShot = mentioning.length > candidates.length;
  for (const importer of candidates) {
    const other = moduleSourceCode(importer);
    if (!other) return null;
    const reexported = new Set<string>();
    const calls = callsFrom(other, importer, file, names, method, method === null && depth < MAX_REEXPORTS ? reexported : null, collect);
    if (calls === null) return null;
    for (const node of calls) sites.push({ sourceCode: other, node });
    if (reexported.size === 0) continue;
    const further = importerCalls(importer, reexported, [...reexported].filter((n) => n !== DEFAULT), reexported.has(DEFAULT), null, depth + 1, sites, collect);
    if (further === null) return null;
    oneShot ||= further;
  }
  return oneShot;
}

/**
 * Whether `text` names any of `names` as a whole word, as `\bname\b` would match. Searched, not
 * matched by a pattern per name: exports have names of their own (`list0`, `find0`), and
 * compiling a pattern for each cost more than the search.
 */
function mentionsAny(text: string, names: readonly string[]): boolean {
  return names.some((name) => mentionsWord(text, name));
}

function mentionsWord(text: string, name: string): boolean {
  if (name.length === 0) return false;
  const first = isWordChar(name.charCodeAt(0));
  const last = isWordChar(name.charCodeAt(name.length - 1));
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    // A boundary on each side: a word character against a non-word one (or the text's end).
    const before = at > 0 && isWordChar(text.charCodeAt(at - 1));
    const after = at + name.length < text.length && isWordChar(text.charCodeAt(at + name.length));
    if (before !== first && after !== last) return true;
  }
  return false;
}

/** `\w` without the `u` flag: ASCII letters, digits and `_`. */
function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** ESM re-exports (`export * from`, `export { a } from`) need both words; CommonJS modules have neither as a word. */
const EXPORT_WORD = /\bexport\b/;
const FROM_WORD = /\bfrom\b/;

/**
 * False when no file that `importerUses` reads uses from (the importers of `file` and, through
 * barrels, theirs) has text `mayAnswer` accepts: then a question only such a file could answer
 * about a use has no answer, and none of them needs a parse. True when one might.
 */
export function importersMayAnswer(file: string, mayAnswer: (text: string) => boolean, depth = 0): boolean {
  const importers = packageImporters(file);
  // No importers known: `importerUses` is null.
  if (importers === null) return false;
  return importers.some((importer) => {
    const text = readText(importer) ?? '';
    if (mayAnswer(text)) return true;
    return depth < MAX_REEXPORTS && EXPORT_WORD.test(text) && FROM_WORD.test(text) && importersMayAnswer(importer, mayAnswer, depth + 1);
  });
}

interface Exported {
  names: Set<string>;
  /** Calls made in the file itself, not through an export. */
  ownCalls: (TSESTree.CallExpression | TSESTree.NewExpression)[];
}

function exportsOf(sourceCode: Services, fn: FunctionNode): Exported | null {
  const found = exportedUses(sourceCode, fn);
  if (!found) return null;
  const ownCalls: TSESTree.CallExpression[] = [];
  for (const use of found.ownUses) {
    const call = calledAt(use);
    if (!call) return null;
    ownCalls.push(call);
  }
  return { names: found.names, ownCalls };
}

/** The names `fn` is exported under (`default` for `module.exports = fn`, `run` for `exports.run = fn`); null when it is not exported. */
export function exportedNames(sourceCode: Services, fn: FunctionNode): ReadonlySet<string> | null {
  const found = exportedUses(sourceCode, fn);
  return found && found.names.size > 0 ? found.names : null;
}

/** Does the file that exports `fn` also read it itself (a call, a callback), beyond the export? */
export function usedInOwnFile(sourceCode: Services, fn: FunctionNode): boolean {
  return (exportedUses(sourceCode, fn)?.ownUses.length ?? 0) > 0;
}

function exportedUses(sourceCode: Services, fn: FunctionNode): { names: Set<string>; ownUses: TSESTree.Identifier[] } | null {
  const names = new Set<string>();
  const parent = fn.parent;
  // The function itself is the exported value.
  if (parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration) names.add(DEFAULT);
  if (parent?.type === AST_NODE_TYPES.ExportNamedDeclaration && fn.type === AST_NODE_TYPES.FunctionDeclaration && fn.id) names.add(fn.id.name);
  const assigned = assignedExport(parent, fn) ?? exportedObjectMember(sourceCode, parent, fn);
  if (assigned) names.add(assigned);
  let id: TSESTree.Identifier | null = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.id : null;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === fn && parent.id.type === AST_NODE_TYPES.Identifier &&
    parent.parent.kind === 'const') {
    id = parent.id;
    if (parent.parent.parent.type === AST_NODE_TYPES.ExportNamedDeclaration) names.add(id.name);
  }
  if (!id) return names.size > 0 ? { names, ownUses: [] } : null;
  const variable = findVariable(sourceCode, id);
  if (!variable || variable.defs.length !== 1) return null;
  const ownUses: TSESTree.Identifier[] = [];
  for (const reference of variable.references) {
    if (!reference.isRead()) continue;
    const use = reference.identifier as TSESTree.Identifier;
    const name = exportedAs(use);
    if (name) names.add(name);
    else ownUses.push(use);
  }
  return { names, ownUses };
}

/**
 * A static method, `class Db { static async connect() {} }`, or a class's constructor (called by
 * `new Db()`): its name and its class. `module.exports = class Client {}` is the module's default.
 */
interface StaticMethod {
  name: string;
  cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression;
}

const CONSTRUCTOR = 'constructor';

function staticMethodOf(fn: FunctionNode): StaticMethod | null {
  const member = fn.parent;
  if (member?.type !== AST_NODE_TYPES.MethodDefinition || member.computed || member.key.type !== AST_NODE_TYPES.Identifier) return null;
  if (member.kind === 'constructor') {
    const cls = member.parent.parent;
    if (cls.type === AST_NODE_TYPES.ClassDeclaration && cls.id) return { name: CONSTRUCTOR, cls };
    return cls.type === AST_NODE_TYPES.ClassExpression && assignedExport(cls.parent, cls) === DEFAULT ? { name: CONSTRUCTOR, cls } : null;
  }
  if (!member.static || member.kind !== 'method') return null;
  const cls = member.parent.parent;
  return cls.type === AST_NODE_TYPES.ClassDeclaration && cls.id ? { name: member.key.name, cls } : null;
}

/** An instance method, `class Client { async init() {} }`: its name and its class. */
function instanceMethodOf(fn: FunctionNode): StaticMethod | null {
  const member = fn.parent;
  if (member?.type !== AST_NODE_TYPES.MethodDefinition || member.static || member.computed || member.kind !== 'method' ||
    member.key.type !== AST_NODE_TYPES.Identifier) {
    return null;
  }
  return { name: member.key.name, cls: member.parent.parent };
}

/**
 * `this.m()` in the instance methods (and constructor) of `m`'s class, and `x.m()` in the files of
 * the package that import the class where `x` only ever holds an instance built there: a variable
 * every write of which is `new C()` (or `null`), or a field of the importer's own class every
 * assignment of which is (`this.push = new WebPush()`, then `this.push.init()`). Null when `.m` is
 * named anywhere else in the file or in such an importer: then an instance may be handed on and
 * called from there.
 */
function instanceCalls(sourceCode: Services, file: string, method: StaticMethod): readonly ExportCallSite[] | null {
  const { cls, name } = method;
  const own = cls.type === AST_NODE_TYPES.ClassDeclaration && cls.id
    ? new Set(sourceCode.getDeclaredVariables(cls).filter((v) => v.name === cls.id?.name))
    : new Set<TSESLint.Scope.Variable>();
  const calls: ExportCallSite[] = [];
  const mine = memberCalls(sourceCode, name, own, cls);
  if (mine === null) return null;
  for (const call of mine) calls.push({ sourceCode, call });
  const importers = packageImporters(file);
  if (importers === null) return null;
  const member = new RegExp(`\\.\\s*${name.replace(/[$]/g, '\\$')}\\b`);
  const classNames = classExportNames(sourceCode, cls);
  // One-shot code (a test, a script) runs nothing in a serving process, as for exports.
  const naming = importers.filter((importer) => member.test(readText(importer) ?? '') && entryReach(importer).kind !== 'one-shot');
  if (naming.length > MAX_IMPORTERS) return null;
  for (const importer of naming) {
    const other = classNames.size === 0 ? null : moduleSourceCode(importer);
    const held = other ? memberCalls(other, name, classBindings(other, importer, file, classNames), null) : null;
    if (!other || !held) return null;
    for (const call of held) calls.push({ sourceCode: other, call });
  }
  return calls.length > 0 ? calls : null;
}

/**
 * Every `.name` in the file, when each is a call on an instance of the class (`this` in `cls`'s
 * own methods, a holder of `new C()` for a binding in `ours`) or a member of an instance of some
 * other class (a holder of `new Other()`, `this` in a class that extends nothing): the calls on
 * the class's instances. Null for any other `.name`: the object may be an instance of the class.
 */
function memberCalls(
  sourceCode: Services,
  name: string,
  ours: ReadonlySet<TSESLint.Scope.Variable>,
  cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression | null,
): TSESTree.CallExpression[] | null {
  const calls: TSESTree.CallExpression[] = [];
  let unknown = false;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (unknown) return false;
    if (node.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(node) !== name) return true;
    const verdict = instanceOf(sourceCode, node, ours, cls);
    const call = verdict === 'ours' ? calledAt(node) : null;
    if (call) calls.push(call);
    else if (verdict !== 'other') unknown = true;
    return true;
  });
  return unknown ? null : calls;
}

/** Whose instance the object of `member` is: the class asked about, another class, or not known. */
function instanceOf(
  sourceCode: Services,
  member: TSESTree.MemberExpression,
  ours: ReadonlySet<TSESLint.Scope.Variable>,
  cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression | null,
): 'ours' | 'other' | 'unknown' {
  const object = skipTransparent(member.object);
  if (object.type === AST_NODE_TYPES.ThisExpression) {
    const own = thisClassOf(member);
    if (own !== null && own === cls) return 'ours';
    // A subclass's `this` may be the class's instance.
    return own !== null && own.superClass === null ? 'other' : 'unknown';
  }
  const built = heldClass(sourceCode, object, staticPropertyName(member));
  if (built === null) return 'unknown';
  if (ours.has(built)) return 'ours';
  const def = built.defs[0];
  // An import of another module, or a class of this file: a class other than the one asked about.
  return built.defs.length === 1 && (def?.type === 'ImportBinding' || def?.type === 'ClassName') ? 'other' : 'unknown';
}

/** The name a read of a local binding exports it under (`export { x as y }`, `export default x`, `module.exports.y = x`), or null. */
function exportedAs(use: TSESTree.Identifier): string | null {
  const site = use.parent;
  if (site?.type === AST_NODE_TYPES.ExportSpecifier && site.local === use) {
    return site.exported.type === AST_NODE_TYPES.Identifier ? site.exported.name : String(site.exported.value);
  }
  if (site?.type === AST_NODE_TYPES.ExportDefaultDeclaration) return DEFAULT;
  return assignedExport(site, use);
}

/** The names a class is exported under: `export default class`, `export class C`, `module.exports = C`, `export { C }`. */
function classExportNames(sourceCode: Services, cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression): ReadonlySet<string> {
  const names = new Set<string>();
  const wrapper = cls.parent;
  if (wrapper?.type === AST_NODE_TYPES.ExportDefaultDeclaration || assignedExport(wrapper, cls) === DEFAULT) names.add(DEFAULT);
  if (wrapper?.type === AST_NODE_TYPES.ExportNamedDeclaration && cls.id) names.add(cls.id.name);
  const assigned = assignedExport(wrapper, cls);
  if (assigned) names.add(assigned);
  const id = cls.id;
  if (!id || cls.type !== AST_NODE_TYPES.ClassDeclaration) return names;
  for (const variable of sourceCode.getDeclaredVariables(cls).filter((v) => v.name === id.name)) {
    for (const reference of variable.references) {
      const name = exportedAs(reference.identifier as TSESTree.Identifier);
      if (name) names.add(name);
    }
  }
  return names;
}

/** The variables of `importer` bound to the class: `import C from`, `import { C } from`, `const C = require(…)`, `const { C } = require(…)`. */
function classBindings(sourceCode: Services, importer: string, target: string, classNames: ReadonlySet<string>): Set<TSESLint.Scope.Variable> {
  const found = new Set<TSESLint.Scope.Variable>();
  const goesTo = (source: TSESTree.Node | null | undefined): boolean => {
    if (source?.type !== AST_NODE_TYPES.Literal || typeof source.value !== 'string' || namesOtherPackage(importer, source.value)) return false;
    const resolution = resolveImport(importer, source.value);
    return resolution.kind === 'file' && resolution.path === target;
  };
  const add = (id: TSESTree.Node): void => {
    const variable = id.type === AST_NODE_TYPES.Identifier ? findVariable(sourceCode, id) : null;
    if (variable) found.add(variable);
  };
  for (const statement of sourceCode.ast.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration && statement.importKind !== 'type' && goesTo(statement.source)) {
      for (const s of statement.specifiers) {
        if (s.type === AST_NODE_TYPES.ImportDefaultSpecifier && classNames.has(DEFAULT)) add(s.local);
        if (s.type === AST_NODE_TYPES.ImportSpecifier && s.importKind !== 'type' &&
          classNames.has(s.imported.type === AST_NODE_TYPES.Identifier ? s.imported.name : String(s.imported.value))) {
          add(s.local);
        }
      }
    }
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of statement.declarations) {
      const init = declarator.init && skipTransparent(declarator.init);
      if (init?.type !== AST_NODE_TYPES.CallExpression || !isRequire(init) || !goesTo(init.arguments[0])) continue;
      if (declarator.id.type === AST_NODE_TYPES.Identifier && classNames.has(DEFAULT)) add(declarator.id);
      if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern) continue;
      for (const property of declarator.id.properties) {
        if (property.type === AST_NODE_TYPES.Property && !property.computed && property.key.type === AST_NODE_TYPES.Identifier &&
          classNames.has(property.key.name)) {
          add(property.value);
        }
      }
    }
  }
  return found;
}

/** The binding `expr` builds an instance of (`new C()`, `C` resolved); null for anything else. */
function builtClass(sourceCode: Services, expr: TSESTree.Node | null | undefined): TSESLint.Scope.Variable | null {
  const built = expr && skipTransparent(expr);
  if (built?.type !== AST_NODE_TYPES.NewExpression || built.callee.type !== AST_NODE_TYPES.Identifier) return null;
  return findVariable(sourceCode, built.callee);
}


/**
 * A read of a holder that keeps the instance where it is: a member of it (`manager.init()`), or a
 * test (`if (!manager)`, `manager === null`). Handed on (an argument, a return, another variable,
 * an export), it may be called from files that never import its class.
 */
function staysPut(read: TSESTree.Node): boolean {
  let node = read;
  while (node.parent && (node.parent.type === AST_NODE_TYPES.TSNonNullExpression || node.parent.type === AST_NODE_TYPES.TSAsExpression)) node = node.parent;
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.MemberExpression) return parent.object === node;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression) return parent.left === node;
  return parent?.type === AST_NODE_TYPES.UnaryExpression || parent?.type === AST_NODE_TYPES.BinaryExpression ||
    ((parent?.type === AST_NODE_TYPES.IfStatement || parent?.type === AST_NODE_TYPES.ConditionalExpression) && parent.test === node) ||
    (parent?.type === AST_NODE_TYPES.LogicalExpression && parent.operator === '&&' && parent.left === node);
}

/** `new Client(manager)`, `auth(manager, user)`: the holder handed to another call as an argument. */
function handedOn(read: TSESTree.Node): boolean {
  let node = read;
  while (node.parent && (node.parent.type === AST_NODE_TYPES.TSNonNullExpression || node.parent.type === AST_NODE_TYPES.TSAsExpression)) node = node.parent;
  const call = node.parent;
  return (call?.type === AST_NODE_TYPES.CallExpression || call?.type === AST_NODE_TYPES.NewExpression) && call.callee !== node &&
    call.arguments.includes(node as TSESTree.CallExpressionArgument);
}

/**
 * Could an instance of `cls` handed on from this file have `.method` called on it where the
 * search does not look? Not when every file of the package that names `.method` (one-shot code
 * aside) is the class's own file or one of its importers, whose every `.method` is read as it
 * is (`instanceCalls`): `new Client(manager)` and `auth(manager, …)` then call other members,
 * whoever keeps the instance, since no other file names the method at all.
 */
function methodNamedOnlyWhereSeen(sourceCode: Services, cls: TSESLint.Scope.Variable, method: string | null): boolean {
  const file = sourceFileOf(sourceCode);
  const def = cls.defs.length === 1 ? cls.defs[0] : undefined;
  if (method === null || file === null || !def) return false;
  let classFile: string | null = null;
  if (def.type === 'ClassName') classFile = file;
  else if (def.type === 'ImportBinding') {
    const ref = resolveReference(sourceCode, def.name);
    classFile = ref && isProjectSpecifier(sourceCode, ref.module) ? localExport(sourceCode, ref)?.value.file ?? null : null;
  }
  if (classFile === null) return false;
  const naming = packageFilesNaming(file, method);
  const importers = packageImporters(classFile);
  if (naming === null || importers === null) return false;
  const reached = importClosure(file);
  if (reached === null) return false;
  const seen = new Set([classFile, ...importers]);
  const member = memberPattern(method);
  return naming.every((f) => seen.has(f) || !reached.has(f) || entryReach(f).kind === 'one-shot' || !member.test(readText(f) ?? ''));
}

/** Files of the import closure read before the question is left open. */
const MAX_CLOSURE = 400;
const closureCache = new Map<string, ReadonlySet<string> | null>();
let closureGeneration = -1;

/**
 * The project files `file` imports, directly or through others: where the functions it can hand
 * an instance to live. A file outside it (browser code beside the server, in the same package)
 * holds no function this file calls, short of a registry it never imports. Null past the cap.
 */
function importClosure(file: string): ReadonlySet<string> | null {
  if (closureGeneration !== lintGeneration()) {
    closureCache.clear();
    closureGeneration = lintGeneration();
  }
  if (closureCache.has(file)) return closureCache.get(file) ?? null;
  const reached = new Set<string>([file]);
  const queue = [file];
  while (queue.length > 0 && reached.size <= MAX_CLOSURE) {
    const next = queue.pop() as string;
    for (const imported of scannedLocalImports(next, readText(next) ?? '')) {
      if (reached.has(imported)) continue;
      reached.add(imported);
      queue.push(imported);
    }
  }
  const found = reached.size <= MAX_CLOSURE ? reached : null;
  closureCache.set(file, found);
  return found;
}

/**
 * The class `holder` holds an instance of, when the file only ever puts instances of that one
 * class in it: a variable every write of which is `new C()` or `null`, or `this.f` in a class
 * whose every assignment to `f` is `new C()`; read only where it stays put. Null otherwise.
 */
function heldClass(sourceCode: Services, holder: TSESTree.Node, method: string | null): TSESLint.Scope.Variable | null {
  const classes = new Set<TSESLint.Scope.Variable | null>();
  let handed = false;
  if (holder.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, holder);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (!variable || def?.type !== 'Variable' || def.parent.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration) return null;
    for (const reference of variable.references) {
      if (reference.isRead() && !staysPut(reference.identifier)) {
        if (!handedOn(reference.identifier)) return null;
        handed = true;
      }
      if (!reference.isWrite()) continue;
      const written = reference.writeExpr;
      if (written == null) return null;
      if (!isNullOrUndefined(written)) classes.add(builtClass(sourceCode, written));
    }
  } else if (holder.type === AST_NODE_TYPES.MemberExpression && holder.object.type === AST_NODE_TYPES.ThisExpression) {
    const field = staticPropertyName(holder);
    const cls = thisClassOf(holder);
    if (field === null || cls === null) return null;
    walk(cls.body, sourceCode.visitorKeys, (node) => {
      if (node.type === AST_NODE_TYPES.PropertyDefinition && !node.static && !node.computed && node.key.type === AST_NODE_TYPES.Identifier &&
        node.key.name === field && node.value) {
        classes.add(builtClass(sourceCode, node.value));
      }
      if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.MemberExpression &&
        node.left.object.type === AST_NODE_TYPES.ThisExpression && staticPropertyName(node.left) === field && thisClassOf(node.left) === cls) {
        classes.add(node.operator === '=' ? builtClass(sourceCode, node.right) : null);
      } else if (node.type === AST_NODE_TYPES.MemberExpression && node.object.type === AST_NODE_TYPES.ThisExpression &&
        staticPropertyName(node) === field && !staysPut(node)) {
        classes.add(null);
      }
      return true;
    });
  }
  const [only] = classes;
  if (classes.size !== 1 || !only) return null;
  return !handed || methodNamedOnlyWhereSeen(sourceCode, only, method) ? only : null;
}

/** The class whose instance `this` is at `node`: through arrows, not through plain functions or static members. */
function thisClassOf(node: TSESTree.Node): TSESTree.ClassDeclaration | TSESTree.ClassExpression | null {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.FunctionExpression && current.parent.type === AST_NODE_TYPES.MethodDefinition) {
      const member = current.parent;
      return member.static ? null : member.parent.parent;
    }
    if (current.type === AST_NODE_TYPES.FunctionExpression || current.type === AST_NODE_TYPES.FunctionDeclaration ||
      current.type === AST_NODE_TYPES.PropertyDefinition || current.type === AST_NODE_TYPES.StaticBlock) {
      return null;
    }
  }
  return null;
}

/**
 * Where a static method is called in its own file (`Db.connect()`, `this.connect()` in the
 * class's other static methods) and the names its class is exported under. Null when the class
 * is handed on as a value or the method is read without a call: then anything may call it.
 */
function classExportsOf(sourceCode: Services, method: StaticMethod): Exported | null {
  const { cls, name } = method;
  const ownCalls: (TSESTree.CallExpression | TSESTree.NewExpression)[] = [];
  if (name !== CONSTRUCTOR && !thisCalls(sourceCode, cls, name, ownCalls)) return null;
  const names = new Set<string>();
  const wrapper = cls.parent;
  if (wrapper?.type === AST_NODE_TYPES.ExportDefaultDeclaration || assignedExport(wrapper, cls) === DEFAULT) names.add(DEFAULT);
  if (wrapper?.type === AST_NODE_TYPES.ExportNamedDeclaration && cls.id) names.add(cls.id.name);
  const id = cls.id;
  // The class name has two bindings: the one in the enclosing scope, and the class's own inside its body.
  const references = id ? sourceCode.getDeclaredVariables(cls).filter((v) => v.name === id.name).flatMap((v) => v.references) : [];
  for (const reference of references) {
    if (!reference.isRead()) continue;
    const use = reference.identifier as TSESTree.Identifier;
    const site = use.parent;
    if (site?.type === AST_NODE_TYPES.ExportSpecifier && site.local === use) {
      names.add(site.exported.type === AST_NODE_TYPES.Identifier ? site.exported.name : String(site.exported.value));
      continue;
    }
    if (site?.type === AST_NODE_TYPES.ExportDefaultDeclaration) {
      names.add(DEFAULT);
      continue;
    }
    const assigned = assignedExport(site, use);
    if (assigned) {
      names.add(assigned);
      continue;
    }
    const verdict = classUse(use, name);
    if (verdict === 'unknown') return null;
    if (verdict !== 'other') ownCalls.push(verdict);
  }
  return { names, ownCalls };
}

/** A use of a class binding: `C.name(…)` (that call), `C.other`, `new C()` ('other', or the call itself for the constructor), anything else 'unknown'. */
function classUse(use: TSESTree.Node, name: string): TSESTree.CallExpression | TSESTree.NewExpression | 'other' | 'unknown' {
  const parent = use.parent;
  if (parent?.type === AST_NODE_TYPES.NewExpression && parent.callee === use) return name === CONSTRUCTOR ? parent : 'other';
  if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== use) return 'unknown';
  const property = staticPropertyName(parent);
  if (property === null) return 'unknown';
  if (property !== name) return 'other';
  return calledAt(parent) ?? 'unknown';
}

/** `this.name(…)` in the class's static methods (where `this` is the class); false for any other read of it there. */
function thisCalls(sourceCode: Services, cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression, name: string, into: (TSESTree.CallExpression | TSESTree.NewExpression)[]): boolean {
  let unknown = false;
  for (const member of cls.body.body) {
    if (member.type !== AST_NODE_TYPES.MethodDefinition || !member.static) continue;
    walk(member.value.body ?? member.value, sourceCode.visitorKeys, (node) => {
      // A nested class or plain function has its own `this`; arrows share the method's.
      if (node.type === AST_NODE_TYPES.ClassBody || node.type === AST_NODE_TYPES.FunctionExpression ||
        node.type === AST_NODE_TYPES.FunctionDeclaration) {
        return false;
      }
      if (node.type !== AST_NODE_TYPES.ThisExpression) return true;
      const verdict = classUse(node, name);
      if (verdict === 'unknown') unknown = true;
      else if (verdict !== 'other') into.push(verdict);
      return true;
    });
  }
  return !unknown;
}

/**
 * `module.exports = x` → default; `exports.run = x`, `module.exports.run = x`, `module.exports = { run: x }` → `run`.
 * `export default { run }` is read as the CommonJS object is: its importers reach `run` through
 * the default binding (`import m from …; m.run`), which `callsFrom` binds as a namespace.
 */
function assignedExport(parent: TSESTree.Node | undefined, value: TSESTree.Node): string | null {
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === value && !parent.computed &&
    parent.parent.type === AST_NODE_TYPES.ObjectExpression &&
    (isModuleExports(parent.parent.parent, parent.parent) || parent.parent.parent.type === AST_NODE_TYPES.ExportDefaultDeclaration)) {
    return parent.key.type === AST_NODE_TYPES.Identifier ? parent.key.name : null;
  }
  if (parent?.type !== AST_NODE_TYPES.AssignmentExpression || parent.right !== value) return null;
  if (isModuleExportsTarget(parent.left)) return DEFAULT;
  const left = parent.left;
  if (left.type !== AST_NODE_TYPES.MemberExpression) return null;
  const object = skipTransparent(left.object);
  const exportsObject = (object.type === AST_NODE_TYPES.Identifier && object.name === 'exports') || isModuleExportsTarget(object);
  return exportsObject ? staticPropertyName(left) : null;
}

/**
 * `const handlers = { connect: async (req, res, next) => … }; module.exports = handlers`: the
 * same module as `module.exports = { connect: … }`, so the member is exported under its key.
 * Only when the file reads the object for nothing but exporting it whole: an object it also
 * hands on or calls through may run the member where importers cannot show it.
 */
function exportedObjectMember(sourceCode: Services, parent: TSESTree.Node | undefined, value: TSESTree.Node): string | null {
  if (parent?.type !== AST_NODE_TYPES.Property || parent.value !== value || parent.computed || parent.key.type !== AST_NODE_TYPES.Identifier) return null;
  const object = parent.parent;
  const declarator = object.parent;
  if (object.type !== AST_NODE_TYPES.ObjectExpression || declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== object ||
    declarator.id.type !== AST_NODE_TYPES.Identifier || declarator.parent.kind !== 'const' ||
    declarator.parent.parent.type === AST_NODE_TYPES.ExportNamedDeclaration) {
    return null;
  }
  const variable = findVariable(sourceCode, declarator.id);
  if (!variable || variable.defs.length !== 1) return null;
  const reads = variable.references.filter((r) => r.isRead());
  if (reads.length === 0 || !reads.every((r) => exportedAs(r.identifier as TSESTree.Identifier) === DEFAULT)) return null;
  return parent.key.name;
}

function isModuleExports(node: TSESTree.Node | undefined, value: TSESTree.Node): boolean {
  return node?.type === AST_NODE_TYPES.AssignmentExpression && node.right === value && isModuleExportsTarget(node.left);
}

function isModuleExportsTarget(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.MemberExpression && !node.computed && node.object.type === AST_NODE_TYPES.Identifier &&
    node.object.name === 'module' && node.property.type === AST_NODE_TYPES.Identifier && node.property.name === 'exports';
}

/** The call `use` is the callee of, through parentheses and `await`-free wrappers; null for any other use. */
function calledAt(use: TSESTree.Node): TSESTree.CallExpression | null {
  let node = use;
  while (node.parent && (node.parent.type === AST_NODE_TYPES.TSNonNullExpression || node.parent.type === AST_NODE_TYPES.TSAsExpression)) node = node.parent;
  const parent = node.parent;
  return parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === node ? parent : null;
}

/**
 * The calls `importer` makes of `target`'s exports named in `names`, or null when it uses one in a
 * way that is not a call. A re-export of them adds the names it passes them on under to
 * `reexported` (whose importers the caller asks next), or is unknown without it.
 */
function callsFrom(
  sourceCode: Services,
  importer: string,
  target: string,
  names: ReadonlySet<string>,
  method: string | null,
  reexported: Set<string> | null,
  collect: Collect,
  sawImport?: { value: boolean },
): TSESTree.Node[] | null {
  const calls: TSESTree.Node[] = [];
  // A plain read counts as a use; for `knownCallers` only a call does.
  const usedAt = (use: TSESTree.Node): TSESTree.Node | null => collect === 'uses' ? use : calledAt(use);
  let unknown = false;
  const goesTo = (source: TSESTree.Node | null | undefined): boolean => {
    if (source?.type !== AST_NODE_TYPES.Literal || typeof source.value !== 'string') return false;
    if (namesOtherPackage(importer, source.value)) return false;
    const resolution = resolveImport(importer, source.value);
    const goes = resolution.kind === 'file' && resolution.path === target;
    if (goes && sawImport) sawImport.value = true;
    return goes;
  };
  const bindings: { id: TSESTree.Node; namespace: boolean }[] = [];
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (unknown) return false;
    if ((node.type === AST_NODE_TYPES.ExportNamedDeclaration || node.type === AST_NODE_TYPES.ExportAllDeclaration) && goesTo(node.source)) {
      if (!reexported || !reexportNames(node, names, reexported)) unknown = true;
    } else if (node.type === AST_NODE_TYPES.ImportDeclaration && node.importKind !== 'type' && goesTo(node.source)) {
      for (const s of node.specifiers) {
        if (s.type === AST_NODE_TYPES.ImportSpecifier && s.importKind !== 'type') {
          const imported = s.imported.type === AST_NODE_TYPES.Identifier ? s.imported.name : String(s.imported.value);
          if (names.has(imported)) bindings.push({ id: s.local, namespace: false });
        } else if (s.type === AST_NODE_TYPES.ImportDefaultSpecifier) {
          bindings.push({ id: s.local, namespace: !names.has(DEFAULT) });
        } else if (s.type === AST_NODE_TYPES.ImportNamespaceSpecifier) {
          bindings.push({ id: s.local, namespace: true });
        }
      }
    } else if (node.type === AST_NODE_TYPES.CallExpression && isRequire(node) && goesTo(node.arguments[0])) {
      // `require('./db').connect()` on a class's module: left unknown rather than read both ways.
      if ((method && node.parent.type === AST_NODE_TYPES.MemberExpression) || !bindModule(node, names, bindings, calls, usedAt)) unknown = true;
    } else if (node.type === AST_NODE_TYPES.ImportExpression && goesTo(node.source)) {
      if (!bindDynamic(node, names, bindings)) unknown = true;
    }
    return true;
  });
  for (const { id, namespace } of bindings) {
    if (unknown) break;
    const variable = findVariable(sourceCode, id as TSESTree.Identifier);
    if (!variable) return null;
    for (const reference of variable.references) {
      if (!reference.isRead()) continue;
      const use = reference.identifier;
      if (method) {
        // The class itself, or a namespace holding it (`ns.Db.connect()` is not followed).
        const verdict = namespace ? namespaceUse(use, names) : classUse(use, method);
        if (verdict === 'unknown') return null;
        if (verdict !== 'other') calls.push(verdict);
        continue;
      }
      if (!namespace) {
        const call = usedAt(use);
        if (!call) return null;
        calls.push(call);
        continue;
      }
      // `ns.start()` counts; `ns.other` is another export; `ns` itself handed on is unknown.
      const member = use.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== use) return null;
      const name = staticPropertyName(member);
      if (name === null) return null;
      if (!names.has(name)) continue;
      const call = usedAt(member);
      if (!call) return null;
      calls.push(call);
    }
  }
  return unknown ? null : calls;
}

/**
 * Adds the names under which `node` re-exports any of `names` (`export * from`, `export { a as b }
 * from`) to `into`. False for `export * as ns from`, whose importers hold a namespace.
 */
function reexportNames(node: TSESTree.ExportNamedDeclaration | TSESTree.ExportAllDeclaration, names: ReadonlySet<string>, into: Set<string>): boolean {
  if (node.exportKind === 'type') return true;
  if (node.type === AST_NODE_TYPES.ExportAllDeclaration) {
    if (node.exported) return false;
    // `export *` passes on every name but the default.
    for (const name of names) if (name !== DEFAULT) into.add(name);
    return true;
  }
  for (const s of node.specifiers) {
    if (s.exportKind === 'type') continue;
    const local = s.local.type === AST_NODE_TYPES.Identifier ? s.local.name : String(s.local.value);
    const exported = s.exported.type === AST_NODE_TYPES.Identifier ? s.exported.name : String(s.exported.value);
    if (names.has(local)) into.add(exported);
  }
  return true;
}

/** A namespace use when a class export is asked about: its other members are 'other', the class itself 'unknown'. */
function namespaceUse(use: TSESTree.Node, names: ReadonlySet<string>): 'other' | 'unknown' {
  const member = use.parent;
  if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== use) return 'unknown';
  const name = staticPropertyName(member);
  return name !== null && !names.has(name) ? 'other' : 'unknown';
}

/**
 * A dependency the importer's manifest declares (not the package itself) is installed code or a
 * sibling package, never a file of the importer's own package, which is where `target` is: no
 * need to ask the resolver, from every importing folder, where `express` goes.
 */
function namesOtherPackage(importer: string, specifier: string): boolean {
  const name = bareName(specifier);
  return name !== null && declaresDependency(importer, name) && nearestPackage(importer).name !== name;
}

function isRequire(call: TSESTree.CallExpression): boolean {
  return call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'require' && call.arguments.length === 1;
}

/**
 * `const m = require(…)`, `const { run } = require(…)`, `require(…).run()`, `require(…)()`, a
 * bare `require(…)` for its effects. False for any other use of the module object.
 */
function bindModule(
  expr: TSESTree.Node,
  names: ReadonlySet<string>,
  bindings: { id: TSESTree.Node; namespace: boolean }[],
  calls: TSESTree.Node[],
  usedAt: (use: TSESTree.Node) => TSESTree.Node | null,
): boolean {
  const parent = expr.parent;
  if (parent?.type === AST_NODE_TYPES.ExpressionStatement) return true;
  if (parent?.type === AST_NODE_TYPES.AwaitExpression) return bindModule(parent, names, bindings, calls, usedAt);
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === expr) return bindPattern(parent.id, names, bindings);
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === expr) {
    if (names.has(DEFAULT)) calls.push(parent);
    return true;
  }
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === expr) {
    const name = staticPropertyName(parent);
    if (name === null) return false;
    if (!names.has(name)) return true;
    const call = usedAt(parent);
    if (call) calls.push(call);
    return call !== null;
  }
  return false;
}

function bindPattern(id: TSESTree.Node, names: ReadonlySet<string>, bindings: { id: TSESTree.Node; namespace: boolean }[]): boolean {
  if (id.type === AST_NODE_TYPES.Identifier) {
    // The module object: called itself when its default is the function, else through members.
    bindings.push({ id, namespace: !names.has(DEFAULT) });
    return true;
  }
  if (id.type !== AST_NODE_TYPES.ObjectPattern) return false;
  for (const property of id.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed || property.key.type !== AST_NODE_TYPES.Identifier) return false;
    if (!names.has(property.key.name)) continue;
    if (property.value.type !== AST_NODE_TYPES.Identifier) return false;
    bindings.push({ id: property.value, namespace: false });
  }
  return true;
}

/** `import('./app').then((m) => m.default())`, `.then(({ start }) => start())`, `const m = await import('./app')`. */
function bindDynamic(
  expr: TSESTree.ImportExpression,
  names: ReadonlySet<string>,
  bindings: { id: TSESTree.Node; namespace: boolean }[],
): boolean {
  const parent = expr.parent;
  if (parent?.type === AST_NODE_TYPES.AwaitExpression) {
    const holder = parent.parent;
    if (holder?.type === AST_NODE_TYPES.ExpressionStatement) return true;
    return holder?.type === AST_NODE_TYPES.VariableDeclarator && holder.init === parent && bindNamespace(holder.id, names, bindings);
  }
  if (parent?.type === AST_NODE_TYPES.ExpressionStatement) return true;
  if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== expr || staticPropertyName(parent) !== 'then') return false;
  const then = parent.parent;
  const callback = then?.type === AST_NODE_TYPES.CallExpression && then.callee === parent ? then.arguments[0] : undefined;
  if (!isFunctionNode(callback)) return false;
  const param = callback.params[0];
  return param === undefined || bindNamespace(param, names, bindings);
}

/** A dynamic import's namespace: its default is a member, never the namespace itself. */
function bindNamespace(id: TSESTree.Node, names: ReadonlySet<string>, bindings: { id: TSESTree.Node; namespace: boolean }[]): boolean {
  if (id.type === AST_NODE_TYPES.Identifier) {
    bindings.push({ id, namespace: true });
    return true;
  }
  return bindPattern(id, names, bindings);
}
