/**
 * The syntactic path's parser: oxc's native parser, giving ESLint the same program
 * `@typescript-eslint/parser` gives it (TS-ESTree nodes with `range` and `loc`, tokens, comments,
 * a typescript-eslint scope manager), in a fraction of the time. Parsing is most of the cost of an
 * ESLint run, and the editor lints on every keystroke.
 *
 * ```ts
 * const native = loadNativeParser(tsParser);       // null when no binding loads here
 * const parser = native?.parser ?? tsParser;       // a `Linter.Parser` either way
 * ```
 *
 * Whatever oxc does not parse the way typescript-eslint does goes to `@typescript-eslint/parser`
 * instead, inside the same `parseForESLint` call, so ESLint sees one parser:
 * - text oxc or TypeScript's scanner reports errors in (a syntax error then reads exactly as
 *   typescript-eslint words it, and code only typescript-eslint accepts is still linted);
 * - JSX, a hashbang line, and `<T>` assertions with a comment before the `>`, whose tokens this
 *   module does not rebuild;
 * - any throw while building the program (a bug here must never cost a lint).
 * `native.lastParse` says which parser served the last call, and why (tests, the bench).
 *
 * oxc gives no tokens. They are made by TypeScript's scanner, which needs to know where the
 * grammar reads `/` as a regular expression, `}` as the rest of a template and `>` as the end of
 * type arguments; the AST says where. Token types follow typescript-estree's (a keyword TypeScript
 * parses as a name is an `Identifier`).
 */
import * as path from 'node:path';
import type { Linter } from 'eslint';
import { analyze } from '@typescript-eslint/scope-manager';
import { visitorKeys } from '@typescript-eslint/visitor-keys';
import * as ts from 'typescript';

type OxcOptions = NonNullable<Parameters<typeof import('oxc-parser').parseSync>[2]>;

/**
 * What this module uses of oxc: its binding's `parseSync`, whose result turns each field into a
 * JavaScript value only when it is read (the program as a JSON string), and the package's own
 * `jsonParseAst` for that string. The package's `parseSync` reads every field, the module record
 * (imports and exports) included, which costs about half as much as parsing the file, and nothing
 * here reads it; a field left unread is freed with the result, at the next collection.
 */
export interface OxcParser {
  parseSync(filename: string, code: string, options: OxcOptions): { readonly program: string; readonly comments: readonly OxcComment[]; readonly errors: readonly unknown[] };
  jsonParseAst(programJson: string): unknown;
  /** The binding oxc loaded (its platform target), when it says. */
  __napiBindingTarget?: string;
}

interface OxcComment {
  type: string;
  value: string;
  start: number;
  end: number;
}

export interface NativeParser {
  parser: Linter.Parser;
  /** Which parser served the last `parseForESLint`, and why the native one did not; null before any. */
  lastParse: { by: 'native' | 'fallback'; reason: string | null } | null;
  /** The binding oxc loaded: `native`, or a WASI flavour. */
  readonly binding: string;
}

/**
 * oxc's parser, or null when its binding cannot load on this platform or Node version. The package
 * is ESM: `require` loads it on Node ≥ 20.19 and 22.12 and throws on older ones, and the binding is
 * a per-platform native module, found or not. `ASYNC_HAZARDS_NATIVE_PARSER=off` turns it off.
 */
export function loadNativeParser(fallback: Linter.Parser): NativeParser | null {
  if (process.env.ASYNC_HAZARDS_NATIVE_PARSER === 'off') return null;
  let oxc: OxcParser;
  try {
    /* eslint-disable @typescript-eslint/no-require-imports -- synchronous, and optional */
    const binding = require('oxc-parser/src-js/bindings') as Pick<OxcParser, 'parseSync' | '__napiBindingTarget'>;
    const { jsonParseAst } = require('oxc-parser/src-js/wrap') as Pick<OxcParser, 'jsonParseAst'>;
    /* eslint-enable @typescript-eslint/no-require-imports */
    oxc = { parseSync: binding.parseSync, jsonParseAst, __napiBindingTarget: binding.__napiBindingTarget };
    // A binding may load and still fail on first use (a WASI build without its runtime).
    if (oxc.parseSync('probe.ts', 'let a = 1;', { lang: 'ts' }).errors.length !== 0) return null;
  } catch {
    return null;
  }
  return createNativeParser(oxc, fallback);
}

interface ParserOptions {
  filePath?: string;
  sourceType?: string;
  ecmaFeatures?: { globalReturn?: boolean; jsx?: boolean };
  jsxPragma?: string | null;
  jsxFragmentName?: string | null;
  lib?: string[];
  emitDecoratorMetadata?: boolean;
  experimentalDecorators?: boolean;
  isolatedDeclarations?: boolean;
  [key: string]: unknown;
}

type Node = { type: string; start: number; end: number; range: [number, number]; loc?: Loc; [key: string]: unknown };
interface Loc {
  start: { line: number; column: number };
  end: { line: number; column: number };
}

/** Signals a construct the native path leaves to typescript-eslint. */
class Unsupported extends Error {}

export function createNativeParser(oxc: OxcParser, fallback: Linter.Parser): NativeParser {
  const fallbackParse = nonNull((fallback as { parseForESLint?: (code: string, options: unknown) => unknown }).parseForESLint, 'a fallback parser with parseForESLint');
  const native: NativeParser = {
    parser: { meta: { name: 'async-hazards/native-parser' }, parseForESLint },
    lastParse: null,
    binding: oxc.__napiBindingTarget ?? 'native',
  };
  return native;

  function viaFallback(code: string, options: ParserOptions, reason: string): Linter.ESLintParseResult {
    native.lastParse = { by: 'fallback', reason };
    return fallbackParse(code, options) as Linter.ESLintParseResult;
  }

  function parseForESLint(code: string, given?: ParserOptions): Linter.ESLintParseResult {
    const options: ParserOptions = { ...given };
    const lang = languageOf(options.filePath);
    if (!lang) return viaFallback(code, options, 'not a JavaScript or TypeScript file name');
    if (code.startsWith('#!')) return viaFallback(code, options, 'hashbang');
    let built: Linter.ESLintParseResult | string;
    try {
      const parsed = oxc.parseSync(options.filePath ?? 'file.ts', code, {
        lang,
        sourceType: 'module',
        astType: 'ts',
        // `range` is added while walking the tree (it is `[start, end]`): a smaller JSON string to parse.
        range: false,
        preserveParens: false,
        // oxc's checks after parsing catch more of what TypeScript's parser rejects (octal literals).
        showSemanticErrors: true,
      });
      if (parsed.errors.length > 0) {
        // Read, so the serialized program is freed now rather than when the result is collected.
        void parsed.program;
        built = 'syntax error';
      } else {
        built = buildResult(code, oxc.jsonParseAst(parsed.program) as Node, parsed.comments, options);
      }
    } catch (error) {
      built = error instanceof Unsupported ? error.message : `internal error: ${String(error)}`;
    }
    // Outside the try: typescript-eslint's own parse error must reach ESLint as it is.
    if (typeof built === 'string') return viaFallback(code, options, built);
    native.lastParse = { by: 'native', reason: null };
    return built;
  }
}

/** The grammar typescript-estree picks from the file name: JS files may hold JSX, `.ts` may not. */
function languageOf(filePath: string | undefined): 'js' | 'jsx' | 'ts' | 'tsx' | null {
  switch (path.extname(filePath ?? '').toLowerCase()) {
    case '.ts':
    case '.mts':
    case '.cts':
      return 'ts';
    case '.tsx':
      return 'tsx';
    case '.js':
    case '.mjs':
    case '.cjs':
    case '.jsx':
      return 'jsx';
    default:
      return null;
  }
}

function buildResult(code: string, program: Node, comments: readonly { type: string; value: string; start: number; end: number }[], options: ParserOptions): Linter.ESLintParseResult {
  const lines = new Lines(code);
  const facts = annotate(program, code, lines);
  program.tokens = tokens(code, lines, facts);
  // typescript-estree's Program covers the whole text, leading comments and blank lines included
  // (oxc's starts at the first token), and its `loc` is its range's.
  program.range = [0, code.length];
  program.loc = { start: lines.position(0), end: lines.position(code.length) };
  delete program.hashbang;
  // As @typescript-eslint/parser: anything but `module` is analysed (and reported) as a script.
  const sourceType = options.sourceType === 'module' ? 'module' : 'script';
  program.sourceType = sourceType;
  program.comments = comments.map((c) => ({ type: c.type, value: c.value, range: [c.start, c.end], loc: { start: lines.position(c.start), end: lines.position(c.end) } }));
  const scopeManager = analyze(program as never, {
    globalReturn: options.ecmaFeatures?.globalReturn,
    jsxFragmentName: options.jsxFragmentName,
    jsxPragma: options.jsxPragma,
    lib: options.lib as never,
    sourceType,
  });
  const services = {
    program: null,
    esTreeNodeToTSNodeMap: new WeakMap(),
    tsNodeToESTreeNodeMap: new WeakMap(),
    emitDecoratorMetadata: options.emitDecoratorMetadata === true,
    experimentalDecorators: options.experimentalDecorators === true,
    isolatedDeclarations: options.isolatedDeclarations === true,
  };
  return { ast: program as never, scopeManager: scopeManager as never, services, visitorKeys: visitorKeys as never };
}

/**
 * What the tokenizer needs to know about an offset, one byte per offset of the text (a flag set):
 * a lookup per token costs an array read instead of four set lookups.
 */
const REGEX_START = 1;
/** `}` resumes a template there (the start of every quasi but the first). */
const TEMPLATE_RESUME = 2;
/** `>` closes type parameters, type arguments or a type assertion there. */
const TYPE_CLOSE = 4;
/** A name starts there: a keyword there is an Identifier token. */
const NAME = 8;
/** `new` of `new.target` or `import` of `import.meta`: a keyword token even though it is a name. */
const META_KEYWORD = 16;

type Facts = Uint8Array;

function mark(facts: Facts, offset: number, flag: number): void {
  facts[offset] = (facts[offset] as number) | flag;
}

/** Optional children typescript-estree leaves `undefined` where oxc writes `null`. */
const ABSENT_AS_UNDEFINED = new Set([
  'typeAnnotation',
  'typeArguments',
  'typeParameters',
  'returnType',
  'directive',
  'accessibility',
  'superTypeArguments',
  'constraint',
  'default',
]);

/** Adds `loc` to every node and gathers what the tokenizer needs. Throws `Unsupported`. */
function annotate(program: Node, code: string, lines: Lines): Facts {
  const facts: Facts = new Uint8Array(code.length + 1);
  const stack: Node[] = [program];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    // typescript-estree writes `null` for these two (and `undefined` for the same keys elsewhere).
    const keepNull = node.type === 'TSTypePredicate' || node.type === 'TSImportType';
    for (const key in node) {
      const value = node[key];
      if (typeof value !== 'object') continue;
      if (value === null) {
        if (!keepNull && ABSENT_AS_UNDEFINED.has(key)) node[key] = undefined;
        continue;
      }
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) {
          const child = value[i] as Node | null;
          if (child !== null && typeof child === 'object' && typeof child.type === 'string') stack.push(child);
        }
      } else if (typeof (value as Node).type === 'string') {
        stack.push(value as Node);
      }
    }
    // After the walk over the keys, which then need not skip these two.
    node.range = [node.start, node.end];
    node.loc = { start: lines.position(node.start), end: lines.position(node.end) };
    switch (node.type) {
      case 'Identifier':
        mark(facts, node.start, NAME);
        if (node.optional === true && (node.decorators as Node[]).length > 0) {
          // typescript-estree starts a decorated optional parameter at its name, oxc at its decorators.
          const decorators = node.decorators as Node[];
          const name = code.indexOf(node.name as string, (decorators[decorators.length - 1] as Node).end);
          if (name < 0 || name >= node.end) throw new Unsupported('decorated optional parameter');
          node.range = [name, node.end];
          node.loc = { start: lines.position(name), end: (node.loc as Loc).end };
        }
        break;
      case 'RestElement':
      case 'TSDeclareFunction':
      case 'TSMappedType':
        // Where typescript-estree has no `value`, `body` or `readonly` (oxc: null).
        if (node.value === null) node.value = undefined;
        if (node.body === null) node.body = undefined;
        if (node.readonly === null) node.readonly = undefined;
        break;
      case 'Literal':
        if (node.regex) mark(facts, node.start, REGEX_START);
        break;
      case 'TemplateLiteral':
      case 'TSTemplateLiteralType': {
        const quasis = node.quasis as Node[];
        for (let i = 1; i < quasis.length; i++) mark(facts, (quasis[i] as Node).start, TEMPLATE_RESUME);
        break;
      }
      case 'TSTypeParameterInstantiation':
      case 'TSTypeParameterDeclaration':
        mark(facts, node.end - 1, TYPE_CLOSE);
        break;
      case 'TSTypeAssertion': {
        const close = closingAngle(code, (node.typeAnnotation as Node).end);
        if (close < 0) throw new Unsupported('type assertion with a comment before its `>`');
        mark(facts, close, TYPE_CLOSE);
        break;
      }
      case 'MetaProperty':
        // `new` and `import` in `new.target` and `import.meta` are keyword tokens.
        mark(facts, (node.meta as Node).start, META_KEYWORD);
        break;
      default:
        if (node.type.startsWith('JSX')) throw new Unsupported('JSX');
    }
  }
  return facts;
}

/** The `>` after a type assertion's type, when only white space comes between; -1 otherwise. */
function closingAngle(code: string, from: number): number {
  for (let i = from; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c === 0x3e) return i;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return -1;
  }
  return -1;
}

const Kind = ts.SyntaxKind;

/** The program's tokens, as typescript-estree makes them. */
function tokens(code: string, lines: Lines, facts: Facts): unknown[] {
  // What TypeScript's scanner objects to, typescript-eslint reports as a parse error.
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, code, (message) => {
    throw new Unsupported(`TypeScript scanner: ${message.key}`);
  });
  const out: unknown[] = [];
  for (;;) {
    let kind = scanner.scan();
    if (kind === Kind.EndOfFileToken) break;
    const start = scanner.getTokenStart();
    const flags = facts[start] as number;
    if ((kind === Kind.SlashToken || kind === Kind.SlashEqualsToken) && (flags & REGEX_START) !== 0) kind = scanner.reScanSlashToken();
    else if (kind === Kind.CloseBraceToken && (flags & TEMPLATE_RESUME) !== 0) kind = scanner.reScanTemplateToken(false);
    else if (kind === Kind.GreaterThanToken && (flags & TYPE_CLOSE) === 0) kind = scanner.reScanGreaterToken();
    const end = scanner.getTokenEnd();
    const type = tokenType(kind, (flags & (NAME | META_KEYWORD)) === NAME);
    if (type === 'PrivateIdentifier') {
      out.push(new Token(type, code.slice(start + 1, end), start, end, lines));
    } else {
      const value = code.slice(start, end);
      const token = new Token(type, value, start, end, lines);
      if (type === 'RegularExpression') {
        const slash = value.lastIndexOf('/');
        token.regex = { flags: value.slice(slash + 1), pattern: value.slice(1, slash) };
      }
      out.push(token);
    }
  }
  return out;
}

/**
 * A token whose `loc` is worked out when read: ESLint indexes tokens by `range`, and rules read
 * the position of only a few, so most never pay for theirs.
 */
class Token {
  // Declared only: typescript-estree's tokens have no `regex` key unless they are regular expressions.
  declare regex?: { flags: string; pattern: string };
  readonly range: [number, number];
  readonly #lines: Lines;
  #loc: Loc | undefined;

  constructor(
    readonly type: string,
    readonly value: string,
    start: number,
    end: number,
    lines: Lines,
  ) {
    this.range = [start, end];
    this.#lines = lines;
  }

  get loc(): Loc {
    this.#loc ??= { start: this.#lines.position(this.range[0]), end: this.#lines.position(this.range[1]) };
    return this.#loc;
  }
}

/** typescript-estree's token types by scanner kind; `isName` when the parser reads the word as a name. */
function tokenType(kind: ts.SyntaxKind, isName: boolean): string {
  if (kind >= Kind.FirstKeyword && kind <= Kind.LastFutureReservedWord && !isName) {
    if (kind === Kind.NullKeyword) return 'Null';
    if (kind === Kind.FalseKeyword || kind === Kind.TrueKeyword) return 'Boolean';
    return 'Keyword';
  }
  if (kind >= Kind.FirstPunctuation && kind <= Kind.LastPunctuation) return 'Punctuator';
  if (kind >= Kind.NoSubstitutionTemplateLiteral && kind <= Kind.TemplateTail) return 'Template';
  switch (kind) {
    case Kind.NumericLiteral:
    case Kind.BigIntLiteral:
      return 'Numeric';
    case Kind.PrivateIdentifier:
      return 'PrivateIdentifier';
    case Kind.StringLiteral:
      return 'String';
    case Kind.RegularExpressionLiteral:
      return 'RegularExpression';
    default:
      return 'Identifier';
  }
}

/**
 * Line and column of any offset, with the line breaks ECMAScript (and ESLint, and TypeScript)
 * count. Every node's `loc` is asked for twice, so each offset's line is looked up in a table
 * instead of searched for.
 */
class Lines {
  readonly #starts: number[] = [0];
  readonly #lineAt: Uint16Array | Uint32Array;

  constructor(code: string) {
    const starts = this.#starts;
    for (let i = 0; i < code.length; i++) {
      const c = code.charCodeAt(i);
      if (c === 0x0a || c === 0x2028 || c === 0x2029) starts.push(i + 1);
      else if (c === 0x0d) {
        if (code.charCodeAt(i + 1) === 0x0a) i++;
        starts.push(i + 1);
      }
    }
    // One slot per offset up to and including the end of the text; a `\r\n` belongs to the line it ends.
    this.#lineAt = starts.length <= 0xffff ? new Uint16Array(code.length + 1) : new Uint32Array(code.length + 1);
    for (let line = 1; line < starts.length; line++) this.#lineAt.fill(line, starts[line] as number, line + 1 < starts.length ? (starts[line + 1] as number) : code.length + 1);
  }

  position(offset: number): { line: number; column: number } {
    const line = this.#lineAt[offset] as number;
    return { line: line + 1, column: offset - (this.#starts[line] as number) };
  }
}

function nonNull<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}`);
  return value;
}
