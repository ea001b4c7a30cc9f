import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { TSESTree } from '@typescript-eslint/typescript-estree';
import { readText } from './fileSystem';
import type { ImportRecord } from './importRecords';
import { callImport, topLevelImports } from './importRecords';
import { Lru } from './lru';

/** A local module as the rules' parser reads it, without types. */
export interface ParsedModule {
  /** Absolute path it was read from. */
  path: string;
  /** Hash of the text: equal hashes, equal parse. */
  hash: string;
  text: string;
  /**
   * ESTree with `parent` pointers, ranges and locations, as ESLint hands rules, but without
   * `tokens` and `comments`: the analysis reads those only of the linted file, and leaving them
   * out halves the parse and its heap. `moduleTokens` has them when something asks.
   */
  program: TSESTree.Program;
  imports: readonly ImportRecord[];
}

/** Parses are the costly part of the layer: at most this many, and this much source, are kept. */
const MAX_MODULES = 200;
const MAX_SOURCE_CHARS = 16 * 1024 * 1024;
/** Bigger modules are generated or bundled code: parsing one would cost more than the lint. */
const MAX_MODULE_CHARS = 2 * 1024 * 1024;

interface Parse {
  program: TSESTree.Program;
  imports: readonly ImportRecord[];
  chars: number;
}

/** Content hash → parse (null when the text does not parse). */
const parses = new Lru<string, Parse | null>(MAX_MODULES, { maxWeight: MAX_SOURCE_CHARS, weigh: (p) => p?.chars ?? 1 });

const PARSEABLE = /\.(?:[cm]?[jt]s|[jt]sx)$/i;

/**
 * The parsed module at `file` (absolute path), from the editor's unsaved text when there is some.
 * Null for files that are missing, not JavaScript or TypeScript (`.json`), over 2 MB, or
 * that do not parse: callers learn nothing from them, as from a module they cannot see.
 */
export function parsedModule(file: string): ParsedModule | null {
  if (!path.isAbsolute(file) || !PARSEABLE.test(file)) return null;
  const text = readText(file);
  if (text === null || text.length > MAX_MODULE_CHARS) return null;
  const hash = createHash('sha1').update(path.extname(file)).update('\0').update(text).digest('hex');
  let parse = parses.get(hash);
  if (parse === undefined) {
    parse = parseText(text, file);
    parses.set(hash, parse);
  }
  return parse && { path: file, hash, text, program: parse.program, imports: parse.imports };
}

type Estree = typeof import('@typescript-eslint/typescript-estree');
let estree: Estree | null = null;

/** Loaded on the first parse: it loads TypeScript, which hosts with their own parser (oxlint) never need. */
function loadEstree(): Estree {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose, see above
  estree ??= require('@typescript-eslint/typescript-estree') as Estree;
  return estree;
}

function parseOptions(file: string, withTokens: boolean) {
  return { filePath: file, jsx: !/\.[cm]?ts$/i.test(file), loc: true, range: true, comment: withTokens, tokens: withTokens };
}

function parseText(text: string, file: string): Parse | null {
  const { parse, simpleTraverse } = loadEstree();
  let program: TSESTree.Program;
  try {
    program = parse(text, parseOptions(file, false));
  } catch {
    // A syntax error in someone else's module: the rules learn nothing from it, and go on.
    return null;
  }
  const imports = topLevelImports(program);
  const deep = text.includes('require') || text.includes('import(');
  simpleTraverse(
    program,
    {
      enter(node) {
        if (!deep) return;
        const record = callImport(node);
        if (record) imports.push(record);
      },
    },
    true,
  );
  return { program, imports, chars: text.length };
}

/** Tokens and comments of a module's text, by program (its parse kept them out). */
const tokenParses = new WeakMap<TSESTree.Program, { tokens: TSESTree.Token[]; comments: TSESTree.Comment[] }>();

/**
 * The tokens and comments of `module`, from a second parse of the same text made on first ask:
 * their ranges are those of `module.program`'s nodes.
 */
export function moduleTokens(module: ParsedModule): { tokens: TSESTree.Token[]; comments: TSESTree.Comment[] } {
  let found = tokenParses.get(module.program);
  if (!found) {
    // The text parsed once already, so this parse does too.
    const { tokens = [], comments = [] } = loadEstree().parse(module.text, parseOptions(module.path, true));
    found = { tokens, comments };
    tokenParses.set(module.program, found);
  }
  return found;
}

/**
 * True when `parsedModule` would read `text` at `file` (a JavaScript or TypeScript path, not over
 * the size limit): a parse of it made elsewhere (ESLint's, of a linted file) stands for its own.
 */
export function isModuleText(file: string, text: string): boolean {
  return path.isAbsolute(file) && PARSEABLE.test(file) && text.length <= MAX_MODULE_CHARS;
}

/** How many parses are held, and their source size (tests). */
export function moduleCacheStats(): { modules: number; chars: number } {
  return { modules: parses.size, chars: parses.weight };
}

/** Forgets every parse (tests). */
export function resetModules(): void {
  parses.clear();
}
