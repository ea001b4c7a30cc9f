// The differential gate for the language server's native parser (server/src/nativeParser.ts):
// over the samples, every rule test case, broken code and real files from node_modules, the lint
// core's findings, fixes and suggestions with oxc's parser are the ones @typescript-eslint/parser
// gives, and so are the program, tokens, comments and scopes ESLint is handed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as ts from 'typescript';
import * as tsParser from '@typescript-eslint/parser';
import type { LintResult } from '../../server/src/lint';
import { createLinter } from '../../server/src/lint';
import { loadNativeParser } from '../../server/src/nativeParser';
import { repoRoot, samplesRoot } from './harness';

const RULE_TESTS = path.join(repoRoot, 'eslint-plugin', 'tests', 'rules');
const FIXTURES = path.join(repoRoot, 'eslint-plugin', 'tests', 'fixtures');

/** Code a syntax error or a construct the native path leaves to typescript-eslint must not change. */
const EDGE_CASES: Record<string, string> = {
  'missing-brace.ts': 'export async function f() {\n  await g(;\n',
  'bad-token.ts': 'const a = 1 @@ 2;\n',
  'unterminated.ts': 'const s = `abc ${x\n',
  'keyword-name.ts': 'const enum = 1;\n',
  'jsx.jsx': 'export const A = () => <div onClick={async () => { await save(); }}>{items.map((i) => fetch(i))}</div>;\n',
  'hashbang.js': "#!/usr/bin/env node\nconst fs = require('fs');\nasync function main() { fs.readFileSync('x'); }\nmain();\n",
  'unicode.ts': "// héllo wörld 🚀\nconst naïve = '日本語';\nexport async function f(ids: string[]) {\n  await Promise.all(ids.map((id) => fetch(`/🚀/${id}`)));\n}\n",
  'crlf.ts': 'export async function f(ids: string[]) {\r\n  // c\r\n  await Promise.all(ids.map((id) => fetch(id)));\r\n}\r\n',
  // Every line break ECMAScript counts, and a last line with none: each offset's line comes from a table.
  'line-breaks.ts': "// lone cr\rconst s = 'a\u2028b';\u2029/* u2028 \u2028 in a comment */\r\nexport async function f(ids: string[]) {\u2028  await Promise.all(ids.map((id) => fetch(id)));\r}",
  'generics.ts': 'type A<T> = Array<Array<T>>;\nconst x = a >> b >>> c;\nlet y: Map<string, Set<number>>= new Map();\nconst z = <T,>(v: T) => v;\nconst w = <any>v >= 1;\n',
  'regex-template.ts': 'const r = /a\\/b[/]/g.test(s) / 2;\nconst t = `a${`b${c}d`}e${f / g}`;\ntype L = `x${string}y`;\n',
  'decorators.ts': "class C {\n  m(@Q('a') a?: string, @Q() b: number) {}\n  constructor(@Inject() private readonly z: string) {}\n}\n",
  'private-meta.ts': 'class K { #p = 1; static async m() { return import.meta.url + new.target + this.#p; } }\n',
  'script.cjs': "const { readFileSync } = require('fs');\nmodule.exports = async function load() { return readFileSync('a'); };\nreturn;\n",
  'with.js': 'with (obj) { x(); }\n',
  'octal.js': 'var n = 010;\n',
  'parameter-property.ts': 'class P { m(private x: number) {} }\n',
  'empty.ts': '',
  'comments-only.ts': '// nothing\n/* at all */\n',
  'disable.ts': "import { readFileSync } from 'fs';\nexport async function f() {\n  // eslint-disable-next-line async-hazards/no-blocking-in-async\n  readFileSync('a');\n  readFileSync('b'); /* eslint-disable-line */\n}\n",
};

/** The code of every literal case in the rule tests (`code` and `output`), with its file name. */
function ruleCases(): Array<{ name: string; filename: string; code: string }> {
  const out: Array<{ name: string; filename: string; code: string }> = [];
  for (const file of fs.readdirSync(RULE_TESTS).filter((f) => f.endsWith('.test.ts')).sort()) {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(RULE_TESTS, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node)) {
        const text = (key: string): string | undefined => {
          const property = node.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === key);
          const value = property?.initializer;
          return value && (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value)) ? value.text : undefined;
        };
        const filename = text('filename') ?? 'file.ts';
        for (const key of ['code', 'output']) {
          const code = text(key);
          if (code !== undefined) out.push({ name: `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}:${key}`, filename, code });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/** Real files: the sources of packages the workspace installs (part of the reliability sweep's corpus). */
function realFiles(): string[] {
  const roots = ['eslint/lib/linter', 'eslint/lib/rules', '@typescript-eslint/typescript-estree/dist', 'vscode-languageserver/lib', 'enhanced-resolve/lib', 'semver/classes'];
  const files: string[] = [];
  for (const root of roots) {
    const dir = path.join(repoRoot, 'node_modules', root);
    if (!fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && /\.(js|cjs|mjs|ts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path.join(entry.parentPath, entry.name));
    }
  }
  // Every fourth file, in a fixed order: a few hundred files of real code, without the full sweep's cost.
  return files.sort().filter((_, i) => i % 4 === 0);
}

function sampleFiles(): string[] {
  return fs
    .readdirSync(path.join(samplesRoot, 'src'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** What a user sees of a result: findings with positions, messages, fixes and suggestions, and parse errors. */
function findings(result: LintResult): unknown[] {
  return result.messages.map((m) => ({
    ruleId: m.ruleId,
    fatal: m.fatal ?? false,
    message: m.message,
    at: [m.line, m.column, m.endLine, m.endColumn],
    fix: m.fix,
    suggestions: m.suggestions?.map((s) => ({ desc: s.desc, fix: s.fix })),
    evidence: m.evidence,
    context: m.context,
  }));
}

describe('native parser', () => {
  const native = loadNativeParser(tsParser as never);

  it('loads on this machine (the differential tests below would otherwise compare a parser with itself)', () => {
    assert.ok(native, 'oxc-parser or its binding for this platform did not load');
  });

  it('hands ESLint the program, tokens, comments and scopes typescript-eslint does', () => {
    assert.ok(native);
    const inputs = [
      ...sampleFiles().map((file) => ({ name: file, filePath: file, code: fs.readFileSync(file, 'utf8') })),
      ...ruleCases().map((c) => ({ name: c.name, filePath: path.join(FIXTURES, c.filename), code: c.code })),
      ...Object.entries(EDGE_CASES).map(([name, code]) => ({ name, filePath: path.join(FIXTURES, name), code })),
      ...realFiles().map((file) => ({ name: file, filePath: file, code: fs.readFileSync(file, 'utf8') })),
    ];
    let nativeParses = 0;
    for (const input of inputs) {
      const options = { filePath: input.filePath, sourceType: input.filePath.endsWith('.cjs') ? 'commonjs' : 'module', ecmaVersion: 'latest', jsDocParsingMode: 'none', loggerFn: false };
      const expected = attempt(() => tsParser.parseForESLint(input.code, options as never));
      const actual = attempt(() => (native.parser as { parseForESLint(code: string, options: unknown): unknown }).parseForESLint(input.code, options));
      if (native.lastParse?.by === 'native') nativeParses++;
      if (expected instanceof Error || actual instanceof Error) {
        assert.equal(String(actual), String(expected), `${input.name}: the parse error`);
        continue;
      }
      const a = expected as { ast: Program; scopeManager: ScopeManagerLike };
      const b = actual as { ast: Program; scopeManager: ScopeManagerLike };
      assert.deepEqual(tokenList(b.ast.tokens), tokenList(a.ast.tokens), `${input.name}: tokens`);
      assert.deepEqual(plain(b.ast.comments), plain(a.ast.comments), `${input.name}: comments`);
      assert.deepEqual(scopes(b.scopeManager), scopes(a.scopeManager), `${input.name}: scopes`);
      assert.deepEqual(plain(b.ast, true), plain(a.ast, true), `${input.name}: program`);
    }
    // Most of the inputs take the native path (the rest: JSX, hashbang, syntax errors).
    assert.ok(nativeParses > inputs.length * 0.8, `only ${nativeParses} of ${inputs.length} inputs were parsed natively`);
  });

  it('gives the lint core the same findings, fixes and suggestions in both presets', async () => {
    assert.ok(native);
    const inputs = [
      ...sampleFiles().map((file) => ({ name: file, cwd: samplesRoot, filePath: file, code: fs.readFileSync(file, 'utf8') })),
      ...ruleCases().map((c) => ({ name: c.name, cwd: FIXTURES, filePath: path.join(FIXTURES, c.filename), code: c.code })),
      ...Object.entries(EDGE_CASES).map(([name, code]) => ({ name, cwd: FIXTURES, filePath: path.join(FIXTURES, name), code })),
      ...realFiles().map((file) => ({ name: file, cwd: repoRoot, filePath: file, code: fs.readFileSync(file, 'utf8') })),
    ];
    const linters = new Map<string, { oxc: ReturnType<typeof createLinter>; reference: ReturnType<typeof createLinter> }>();
    let viaOxc = 0;
    let compared = 0;
    for (const preset of ['recommended', 'strict'] as const) {
      for (const input of inputs) {
        const key = `${input.cwd}:${preset}`;
        let pair = linters.get(key);
        if (!pair) {
          const common = { cwd: input.cwd, typeAware: 'off' as const, preset, maxFileSizeKb: 4096 };
          pair = { oxc: createLinter({ ...common, nativeParser: true }), reference: createLinter(common) };
          linters.set(key, pair);
        }
        const ours = await pair.oxc.lintText(input.code, input.filePath);
        const theirs = await pair.reference.lintText(input.code, input.filePath);
        assert.equal(theirs.parsedBy ?? null, theirs.skipped ? null : 'typescript-eslint');
        if (ours.parsedBy === 'oxc') viaOxc++;
        assert.deepEqual(findings(ours), findings(theirs), `${input.name} (${preset})`);
        assert.deepEqual(ours.crashedRules, theirs.crashedRules, `${input.name} (${preset}): crashed rules`);
        compared++;
        if (theirs.messages.some((m) => m.fix)) {
          assert.deepEqual(await pair.oxc.fixText(input.code, input.filePath), await pair.reference.fixText(input.code, input.filePath), `${input.name} (${preset}): autofix`);
        }
      }
    }
    assert.ok(viaOxc > compared * 0.8, `only ${viaOxc} of ${compared} runs went through oxc`);
  });

  it('falls back to typescript-eslint on a syntax error, with its message', async () => {
    const linter = createLinter({ cwd: FIXTURES, typeAware: 'off', nativeParser: true });
    const result = await linter.lintText(EDGE_CASES['missing-brace.ts'] as string, path.join(FIXTURES, 'missing-brace.ts'));
    assert.equal(result.parsedBy, 'typescript-eslint');
    assert.equal(result.messages.length, 1);
    assert.equal(result.messages[0]?.fatal, true);
    assert.match(result.messages[0]?.message ?? '', /^Parsing error: /);
    const clean = await linter.lintText('export const a = 1;\n', path.join(FIXTURES, 'clean.ts'));
    assert.equal(clean.parsedBy, 'oxc');
  });

  it('leaves type-aware runs to typescript-eslint', async () => {
    const linter = createLinter({ cwd: FIXTURES, typeAware: 'on', nativeParser: true });
    const result = await linter.lintText('export const a = 1;\n', path.join(FIXTURES, 'file.ts'));
    assert.equal(result.typeAware, true);
    assert.equal(result.parsedBy, 'typescript-eslint');
  });

  it('is not loaded when switched off', () => {
    const saved = process.env.ASYNC_HAZARDS_NATIVE_PARSER;
    process.env.ASYNC_HAZARDS_NATIVE_PARSER = 'off';
    try {
      assert.equal(loadNativeParser(tsParser as never), null);
    } finally {
      if (saved === undefined) delete process.env.ASYNC_HAZARDS_NATIVE_PARSER;
      else process.env.ASYNC_HAZARDS_NATIVE_PARSER = saved;
    }
  });
});

interface TokenLike {
  type: string;
  value: string;
  range: [number, number];
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
  regex?: unknown;
}

interface Program {
  tokens: TokenLike[];
  comments: unknown[];
}

/** Tokens as rules read them (the native parser's `loc` is a getter). */
function tokenList(tokens: TokenLike[]): unknown[] {
  return tokens.map((t) => ({ type: t.type, value: t.value, range: t.range, loc: { start: { ...t.loc.start }, end: { ...t.loc.end } }, regex: t.regex }));
}

interface ScopeLike {
  type: string;
  block: { range: [number, number] };
  variables: Array<{ name: string; defs: Array<{ type: string; name: { range: [number, number] } }>; references: unknown[] }>;
  references: Array<{ identifier: { name: string; range: [number, number] }; resolved: { name: string } | null; flags?: number }>;
  through: unknown[];
}

interface ScopeManagerLike {
  scopes: ScopeLike[];
}

function attempt(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function scopes(manager: ScopeManagerLike): unknown[] {
  return manager.scopes.map((s) => ({
    type: s.type,
    block: s.block.range,
    variables: s.variables.map((v) => [v.name, v.defs.map((d) => [d.type, d.name.range]), v.references.length]),
    references: s.references.map((r) => [r.identifier.name, r.identifier.range, r.resolved?.name ?? null]),
    through: s.through.length,
  }));
}

/**
 * A node tree as plain data for comparison: no parents, and (for the program) without oxc's extra
 * `start`/`end` offsets on nodes, which duplicate `range` (a `loc`'s `start` and `end` are
 * compared). Keys holding `undefined` count as absent, as they do for a rule.
 */
function plain(value: unknown, program = false): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof RegExp) return String(value);
  if (Array.isArray(value)) return value.map((v) => plain(v, program));
  const out: Record<string, unknown> = {};
  const node = typeof (value as { type?: unknown }).type === 'string';
  for (const key of Object.keys(value).sort()) {
    if (key === 'parent' || (program && node && (key === 'start' || key === 'end' || key === 'tokens' || key === 'comments'))) continue;
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    out[key] = typeof v === 'bigint' ? `${v}n` : plain(v, program);
  }
  return out;
}
