import type { ParserServices, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import * as path from 'node:path';
import type * as TS from 'typescript';
import type { FunctionNode } from './ast';
import type { BlockingOptions, WaitLoop } from './blockingApis';
import type { ModuleRef } from './imports';
import { isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { isSynchronouslyInvoked } from './asyncContext';
import { busyWait, catalogueEntry, matchBlockingCall, mentionsClock } from './blockingApis';
import { functionName, resolveCalleeFunction, resolveImportedFunction } from './callGraph';
import { normalizeModule } from './imports';
import { isFirstRunSetup } from './firstRun';
import { isOncePerProcess } from './onceOnly';
import { isRepeatedIn, isSingleMetadataCall } from './singleMetadata';
import { askChecker } from './typeQueries';
import { ModuleAnswers } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/** One step of a blocking chain: a helper call on the way, or the blocking operation at its end. */
export interface ChainLink {
  /** `calls \`loadTemplates()\``, `calls \`fs.readFileSync\``, `busy-waits on \`Date.now()\``. */
  text: string;
  line: number;
  /** Base name of the file the step is in, when it is not the linted file. */
  file: string | null;
  /** The step's ESTree node, for evidence: in the linted file, or in `path` when that is set. */
  node: TSESTree.Node | null;
  /** Absolute path of the project module the step is in, when it is not the linted file. */
  path?: string;
}

export interface BlockingChain {
  /** From the helper's first step down to the blocking operation (the last link). */
  links: readonly ChainLink[];
}

export interface ChainAnalysis {
  /**
   * Why calling this same-file synchronous function blocks, or null when it does not. `skip`
   * names the function's own calls and loops that cannot run from the call being judged.
   */
  helperChain(fn: FunctionNode, skip?: (node: TSESTree.Node) => boolean): BlockingChain | null;
  /** With type information: why a call into another file's (or an unresolved) synchronous function blocks. */
  typedChain(call: TSESTree.CallExpression): BlockingChain | null;
  /**
   * Why a call of a synchronous function exported by one of the project's own modules blocks:
   * the chain inside that module (and the modules it imports), every link naming its file.
   */
  importedChain(call: TSESTree.CallExpression): BlockingChain | null;
}

/** What another module's analysis answers when a chain crosses into it. */
interface ModuleChains {
  summarize(fn: FunctionNode, depth: number, hops: number): BlockingChain | null;
}

const MAX_DEPTH = 8;
/**
 * Module boundaries a chain may cross: the rule's early exit looks at packages imported two
 * levels into the project's modules, and a chain deeper than that is rare enough to leave.
 */
const MAX_MODULE_HOPS = 2;

/** One analysis per module program and options: an imported helper is summarised once per parse. */
const moduleAnalyses = new ModuleAnswers<Services, Map<string, ModuleChains>>();

function moduleChains(sourceCode: Services, options: BlockingOptions): ModuleChains {
  const key = JSON.stringify(options);
  let perModule = moduleAnalyses.get(sourceCode, sourceCode);
  if (!perModule) {
    perModule = new Map();
    moduleAnalyses.set(sourceCode, perModule);
  }
  let found = perModule.get(key);
  if (!found) {
    found = chainsFor(sourceCode, options, null);
    perModule.set(key, found);
  }
  return found;
}

/** What runs when a function is called: its calls and loops, including synchronous callbacks, not nested functions. */
export interface FunctionBody {
  calls: TSESTree.CallExpression[];
  loops: WaitLoop[];
}

export function functionBody(sourceCode: Services, fn: FunctionNode): FunctionBody {
  const body: FunctionBody = { calls: [], loops: [] };
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (isFunctionNode(node) && (node.async || !isSynchronouslyInvoked(node))) return false;
    if (node.type === AST_NODE_TYPES.CallExpression) body.calls.push(node);
    else if (
      node.type === AST_NODE_TYPES.WhileStatement ||
      node.type === AST_NODE_TYPES.DoWhileStatement ||
      node.type === AST_NODE_TYPES.ForStatement
    ) {
      body.loops.push(node);
    }
    return true;
  });
  return body;
}

/**
 * Follows synchronous helpers to the blocking calls they make. Created once per linted file;
 * each helper's body is scanned once, when an async caller first asks about it, and its answer
 * is memoised — no whole-file call graph is built.
 */
export function createChainAnalysis(
  sourceCode: Services,
  options: BlockingOptions,
  services: Partial<ParserServices> | null,
): ChainAnalysis {
  return chainsFor(sourceCode, options, services);
}

function chainsFor(
  sourceCode: Services,
  options: BlockingOptions,
  services: Partial<ParserServices> | null,
): ChainAnalysis & ModuleChains {
  const memo = new Map<FunctionNode, BlockingChain | null>();
  const program = services?.program ?? null;
  const typed = program && services?.esTreeNodeToTSNodeMap ? createTypedChains(program, options) : null;
  // A helper called in a loop repeats its one metadata call per element: below it, count them.
  const loudOptions: BlockingOptions = { ...options, quietMetadata: false };
  let loud: (ChainAnalysis & ModuleChains) | null = null;
  const quietStep = (call: TSESTree.CallExpression, fn: FunctionNode): boolean =>
    options.quietMetadata !== true || !isRepeatedIn(call, fn);

  const bodyOf = (fn: FunctionNode): FunctionBody => functionBody(sourceCode, fn);

  const typedChain = (call: TSESTree.CallExpression): BlockingChain | null => {
    if (!typed || !services?.esTreeNodeToTSNodeMap) return null;
    const tsCall = services.esTreeNodeToTSNodeMap.get(call as TSESTree.Node) as TS.Node | undefined;
    if (!tsCall || !ts.isCallExpression(tsCall)) return null;
    return askChecker(() => typed.callChain(tsCall, tsCall.getSourceFile().fileName, 0), null);
  };

  const summarize = (fn: FunctionNode, depth: number, hops: number): BlockingChain | null => {
    if (memo.has(fn)) return memo.get(fn) ?? null;
    // Set before recursing: a recursive helper is summarised by its other calls.
    memo.set(fn, null);
    const result = depth > MAX_DEPTH ? null : findInFunction(fn, depth, hops);
    memo.set(fn, result);
    return result;
  };

  /** `saveDb(x)` with `saveDb` from `./store`: the chain in that module, its links naming their file. */
  const importedStep = (call: TSESTree.CallExpression, depth: number, hops: number, quiet = true): BlockingChain | null => {
    if (hops >= MAX_MODULE_HOPS || depth >= MAX_DEPTH) return null;
    const found = resolveImportedFunction(sourceCode, call.callee);
    if (!found || !isPlainSync(found.fn)) return null;
    const inner = moduleChains(found.sourceCode, quiet ? options : loudOptions).summarize(found.fn, depth + 1, hops + 1);
    return inner ? { links: inner.links.map((l) => inModule(l, found.file)) } : null;
  };

  const findInFunction = (fn: FunctionNode, depth: number, hops: number, skip?: (node: TSESTree.Node) => boolean): BlockingChain | null => {
    const whole = bodyOf(fn);
    const body = skip ? { calls: whole.calls.filter((c) => !skip(c)), loops: whole.loops.filter((l) => !skip(l)) } : whole;
    for (const call of body.calls) {
      const direct = matchBlockingCall(sourceCode, call, options);
      if (direct && options.quietMetadata === true && isSingleMetadataCall(direct, fn)) continue;
      // First-run setup (`if (!existsSync(p)) { mkdirSync(p); … }`) runs once per installation.
      if (direct && !isOncePerProcess(sourceCode, call) && !isFirstRunSetup(sourceCode, call, fn)) return { links: [localLink(`calls \`${direct.api.name}\``, call)] };
    }
    if (mentionsClock(sourceCode)) {
      for (const loop of body.loops) {
        const wait = busyWait(sourceCode, loop);
        if (wait) return { links: [localLink(`busy-waits on \`${wait.clockName}\``, loop)] };
      }
    }
    for (const call of body.calls) {
      // `cache ??= loadTemplates()`: the helper runs once per process, not per call.
      if (isOncePerProcess(sourceCode, call) || isFirstRunSetup(sourceCode, call, fn)) continue;
      const target = resolveCalleeFunction(sourceCode, call.callee);
      if (target) {
        // An immediately invoked function's body was scanned as part of this one.
        if (!isPlainSync(target) || target === skipTransparent(call.callee)) continue;
        const inner = quietStep(call, fn)
          ? summarize(target, depth + 1, hops)
          : (loud ??= chainsFor(sourceCode, loudOptions, services)).summarize(target, depth + 1, hops);
        if (inner) return { links: [localLink(`calls \`${functionName(target) ?? 'an anonymous function'}()\``, call), ...inner.links] };
      } else {
        const imported = importedStep(call, depth, hops, quietStep(call, fn));
        if (imported) return { links: [localLink(`calls \`${calleeLabel(call)}()\``, call), ...imported.links] };
        const inner = typedChain(call);
        if (inner) return inner;
      }
    }
    return null;
  };

  return {
    // A chain that depends on the call site is not memoised.
    helperChain: (fn, skip) => (!isPlainSync(fn) ? null : skip ? findInFunction(fn, 0, 0, skip) : summarize(fn, 0, 0)),
    typedChain,
    importedChain: (call) => importedStep(call, 0, 0),
    summarize,
  };
}

/** A link found in the module at `file`, as seen from the file that imports it. */
function inModule(link: ChainLink, file: string): ChainLink {
  return link.path !== undefined ? link : { ...link, file: path.basename(file), path: file };
}

/** `saveDb`, `store.saveDb`: how the call names its callee, for the chain's text. */
function calleeLabel(call: TSESTree.CallExpression): string {
  const callee = skipTransparent(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const name = staticPropertyName(callee);
    const object = skipTransparent(callee.object);
    if (name !== null) return object.type === AST_NODE_TYPES.Identifier ? `${object.name}.${name}` : name;
  }
  return 'function';
}

/**
 * A function whose whole body runs when it is called. Generators run only when iterated, and
 * async functions hand the loop back at their first await (their blocking calls are reported
 * inside them).
 */
export function isPlainSync(fn: FunctionNode): boolean {
  return !fn.async && !fn.generator;
}

function localLink(text: string, node: TSESTree.Node): ChainLink {
  return { text, line: node.loc.start.line, file: null, node };
}

/** `it calls \`readAll()\` (line 30), which calls \`fs.readFileSync\` (line 41)`. */
export function describeChain(chain: BlockingChain): string {
  return chain.links
    .map((link, i) => `${i === 0 ? '' : 'which '}${link.text} (${link.file ? `${link.file} ` : ''}line ${link.line})`)
    .join(', ');
}

// ---------------------------------------------------------------------------------------------
// Typed mode: the same question asked of TypeScript's AST, so calls can be followed into other
// files of the program. Library declarations (.d.ts, node_modules) are never entered.

interface TypedChains {
  callChain(call: TS.CallExpression, fromFile: string, depth: number): BlockingChain | null;
}

const typedCaches = new WeakMap<TS.Program, Map<string, TypedChains>>();

/**
 * TypeScript, loaded on first typed use only: untyped runs (any parser) must not need it, and
 * whenever a program exists, the package that built it is installed.
 */
let ts: typeof TS;

function loadTypeScript(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional at run time, see above
  ts ??= require('typescript') as typeof TS;
}

function createTypedChains(program: TS.Program, options: BlockingOptions): TypedChains {
  loadTypeScript();
  const key = JSON.stringify(options);
  let perProgram = typedCaches.get(program);
  if (!perProgram) {
    perProgram = new Map();
    typedCaches.set(program, perProgram);
  }
  const hit = perProgram.get(key);
  if (hit) return hit;
  const checker = program.getTypeChecker();
  const memo = new WeakMap<TS.Node, BlockingChain | null>();

  const link = (text: string, node: TS.Node, fromFile: string): ChainLink => {
    const sf = node.getSourceFile();
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    return { text, line, file: sf.fileName === fromFile ? null : path.basename(sf.fileName), node: null };
  };

  const summarizeFn = (fn: TS.FunctionLikeDeclaration, fromFile: string, depth: number): BlockingChain | null => {
    if (memo.has(fn)) return memo.get(fn) ?? null;
    memo.set(fn, null);
    const result = depth > MAX_DEPTH || !fn.body ? null : scanBody(fn.body, fromFile, depth);
    memo.set(fn, result);
    return result;
  };

  const scanBody = (body: TS.Node, fromFile: string, depth: number): BlockingChain | null => {
    let found: BlockingChain | null = null;
    const visit = (node: TS.Node): void => {
      if (found) return;
      if (ts.isFunctionLike(node) && !isSyncCallback(node)) return;
      if (ts.isCallExpression(node)) {
        const api = blockingApiAt(checker, node, options);
        if (api) {
          found = { links: [link(`calls \`${api}\``, node, fromFile)] };
          return;
        }
      }
      const clock = ts.isWhileStatement(node) || ts.isDoStatement(node) || ts.isForStatement(node) ? typedBusyWait(node) : null;
      if (clock) {
        found = { links: [link(`busy-waits on \`${clock}\``, node, fromFile)] };
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(body);
    if (found) return found;
    // Second pass: helpers, after every direct operation was tried.
    const visitCalls = (node: TS.Node): void => {
      if (found) return;
      if (ts.isFunctionLike(node) && !isSyncCallback(node)) return;
      if (ts.isCallExpression(node)) {
        const inner = callChain(node, fromFile, depth + 1);
        if (inner) {
          found = inner;
          return;
        }
      }
      ts.forEachChild(node, visitCalls);
    };
    visitCalls(body);
    return found;
  };

  const callChain = (call: TS.CallExpression, fromFile: string, depth: number): BlockingChain | null => {
    if (depth > MAX_DEPTH) return null;
    const target = calledDeclaration(program, checker, call.expression);
    if (!target) return null;
    const inner = summarizeFn(target.fn, fromFile, depth);
    return inner ? { links: [link(`calls \`${target.name}()\``, call, fromFile), ...inner.links] } : null;
  };

  const result: TypedChains = { callChain };
  perProgram.set(key, result);
  return result;
}

const SYNC_CALLBACK_METHODS = new Set(['map', 'forEach', 'filter', 'reduce', 'some', 'every', 'find', 'flatMap', 'sort']);

/** An arrow or function expression passed to an array method that calls it right away. */
function isSyncCallback(node: TS.Node): boolean {
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return false;
  if (hasModifier(node, ts.SyntaxKind.AsyncKeyword)) return false;
  const parent = node.parent;
  return (
    ts.isCallExpression(parent) && parent.arguments[0] === node &&
    ts.isPropertyAccessExpression(parent.expression) && SYNC_CALLBACK_METHODS.has(parent.expression.name.text)
  );
}

function hasModifier(node: TS.Node, kind: TS.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

const CLOCK_TEXT = /\b(Date\.now|performance\.now|process\.hrtime(?:\.bigint)?)\s*\(/;

/** The clock a loop spins on (`Date.now()`), judged from the condition's text, or null. */
function typedBusyWait(loop: TS.WhileStatement | TS.DoStatement | TS.ForStatement): string | null {
  const cond = loop.kind === ts.SyntaxKind.ForStatement ? loop.condition : loop.expression;
  const clock = cond ? CLOCK_TEXT.exec(cond.getText())?.[1] : undefined;
  if (!clock) return null;
  let yields = false;
  const visit = (node: TS.Node): void => {
    if (yields || ts.isFunctionLike(node)) return;
    if (ts.isAwaitExpression(node) || ts.isYieldExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier)) {
      yields = true;
      return;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(loop, visit);
  return yields ? null : `${clock}()`;
}

function blockingApiAt(checker: TS.TypeChecker, call: TS.CallExpression, options: BlockingOptions): string | null {
  const callee = call.expression;
  if (
    ts.isPropertyAccessExpression(callee) && callee.name.text === 'wait' &&
    ts.isIdentifier(callee.expression) && callee.expression.text === 'Atomics' &&
    (checker.getSymbolAtLocation(callee.expression)?.declarations ?? []).every((d) => d.getSourceFile().isDeclarationFile)
  ) {
    return 'Atomics.wait';
  }
  const ref = tsModuleRef(checker, callee, 0);
  if (!ref) return null;
  const entry = catalogueEntry(ref);
  if (entry?.sized) return null; // sizes are judged at ESTree call sites only
  if (entry) return options.allow.some((e) => normalizeModule(e.module).module === ref.module && e.export === ref.path.join('.')) ? null : entry.name;
  const configured = options.blockingCalls.some(
    (e) => normalizeModule(e.module).module === ref.module &&
      (e.export !== undefined ? e.export === ref.path.join('.') : ref.path[ref.path.length - 1] === e.method),
  );
  return configured ? `${ref.module}.${ref.path.join('.')}` : null;
}

/** `fs.readFileSync`, `readFileSync` (imported or required) → the module export, in TypeScript's AST. */
function tsModuleRef(checker: TS.TypeChecker, expr: TS.Expression, depth: number): ModuleRef | null {
  if (depth > 6) return null;
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr)) {
    return tsModuleRef(checker, expr.expression, depth + 1);
  }
  if (ts.isPropertyAccessExpression(expr)) {
    const base = tsModuleRef(checker, expr.expression, depth + 1);
    return base ? { module: base.module, path: [...base.path, expr.name.text] } : null;
  }
  if (ts.isCallExpression(expr)) return requireRef(expr);
  if (!ts.isIdentifier(expr)) return null;
  const decl = checker.getSymbolAtLocation(expr)?.declarations?.[0];
  if (!decl) return null;
  if (ts.isImportSpecifier(decl)) {
    const spec = decl.parent.parent.parent.moduleSpecifier;
    if (!ts.isStringLiteral(spec)) return null;
    const base = normalizeModule(spec.text);
    const name = (decl.propertyName ?? decl.name).text;
    return name === 'default' ? base : { module: base.module, path: [...base.path, name] };
  }
  if (ts.isNamespaceImport(decl) || ts.isImportClause(decl)) {
    const importDecl = ts.isNamespaceImport(decl) ? decl.parent.parent : decl.parent;
    return ts.isStringLiteral(importDecl.moduleSpecifier) ? normalizeModule(importDecl.moduleSpecifier.text) : null;
  }
  if (ts.isVariableDeclaration(decl) && decl.initializer && ts.isIdentifier(decl.name)) {
    return tsModuleRef(checker, decl.initializer, depth + 1);
  }
  if (ts.isBindingElement(decl) && ts.isObjectBindingPattern(decl.parent) && ts.isVariableDeclaration(decl.parent.parent)) {
    const init = decl.parent.parent.initializer;
    const base = init ? tsModuleRef(checker, init, depth + 1) : null;
    const key = decl.propertyName ?? decl.name;
    return base && ts.isIdentifier(key) ? { module: base.module, path: [...base.path, key.text] } : null;
  }
  return null;
}

function requireRef(call: TS.CallExpression): ModuleRef | null {
  const arg = call.arguments[0];
  return ts.isIdentifier(call.expression) && call.expression.text === 'require' && call.arguments.length === 1 &&
    arg && ts.isStringLiteral(arg)
    ? normalizeModule(arg.text)
    : null;
}

/** The synchronous function a call runs, when it is declared in a source file of the program (not a library). */
function calledDeclaration(
  program: TS.Program,
  checker: TS.TypeChecker,
  callee: TS.Expression,
): { fn: TS.FunctionLikeDeclaration; name: string } | null {
  const at = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
  let symbol = checker.getSymbolAtLocation(at);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const decl = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  if (!decl) return null;
  const sf = decl.getSourceFile();
  if (sf.isDeclarationFile || program.isSourceFileFromExternalLibrary(sf)) return null;
  let fn: TS.Node | undefined = decl;
  if ((ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl) || ts.isPropertyAssignment(decl)) && decl.initializer) {
    fn = decl.initializer;
  }
  if (
    !fn ||
    !(ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn) || ts.isFunctionExpression(fn) || ts.isArrowFunction(fn)) ||
    hasModifier(fn, ts.SyntaxKind.AsyncKeyword) || fn.asteriskToken
  ) {
    return null;
  }
  return { fn, name: symbol?.name ?? 'function' };
}
