// Where the language server's syntactic lint spends its time with the native parser, in one
// process, as ratios to the one-rule floor (Linter.verify with @typescript-eslint/parser and core
// `no-debugger`, the floor bench/lsp-latency.mjs compares the server with):
//   node --import tsx bench/native-breakdown.mjs [--sizes 1k,5k] [--rounds 40]
// It reads the documents bench/lsp-latency.mjs writes (run that once first) and times, each round
// and interleaved so machine load hits every row alike:
// - the parse: oxc's binding (parse and the JSON string), the JSON turned into objects, and the
//   whole `parseForESLint` (the rest is the tree walk adding `range`/`loc`, the token pass and
//   typescript-eslint's scope manager, which is also timed alone on the same program);
// - ESLint's own work on a parse made beforehand (SourceCode, token index, traversal with code
//   path analysis, one trivial rule), then with the plugin's recommended rules instead;
// - the lint core's `lintText` (what the server runs per edit, without the LSP round trip).
// What is left between `lintText` and the server's p50 in lsp-latency is the round trip and the
// garbage collection that lands after the reply.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { Linter } = require('eslint');
const tsParser = require('@typescript-eslint/parser');
const oxc = require('oxc-parser');
const { analyze } = require('@typescript-eslint/scope-manager');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { loadNativeParser } = await import(path.join(root, 'server', 'src', 'nativeParser.ts'));
const { createLinter } = await import(path.join(root, 'server', 'src', 'lint.ts'));
const plugin = require('eslint-plugin-async-hazards');

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const SIZES = option('--sizes', '1k,5k').split(',');
const ROUNDS = Number(option('--rounds', 40));
const WARMUP = 5;
const corpus = path.join(root, 'bench', '.corpus', 'lsp');

const native = loadNativeParser(tsParser);
if (!native) throw new Error("oxc's binding does not load here: nothing to break down");
const recommended = Object.fromEntries(Object.keys((plugin.default ?? plugin).configs.recommended.rules).map((id) => [id, 'error']));
const config = (parser, rules) => [
  {
    files: ['**/*.ts'],
    plugins: { 'async-hazards': plugin.default ?? plugin },
    languageOptions: { parser, parserOptions: { jsDocParsingMode: 'none', loggerFn: false } },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules,
  },
];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const OXC_OPTIONS = { lang: 'ts', sourceType: 'module', astType: 'ts', range: false, preserveParens: false, showSemanticErrors: true };

for (const size of SIZES) {
  const file = path.join(corpus, 'src', `service${size}.ts`);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run node bench/lsp-latency.mjs once first`);
  let text = fs.readFileSync(file, 'utf8');
  const linter = new Linter({ cwd: path.dirname(file) });
  const core = createLinter({ cwd: corpus, typeAware: 'off', nativeParser: true, openDocuments: () => [{ filePath: file, text }] });
  // ESLint's share: it is handed a parse made before the clock starts.
  let prepared = null;
  const preparedParser = { meta: { name: 'prepared' }, parseForESLint: () => prepared };
  const parse = (code) => native.parser.parseForESLint(code, { filePath: file, sourceType: 'module', ecmaVersion: 'latest' });
  const rows = new Map();
  const time = (label, run) => {
    const started = performance.now();
    const value = run();
    const list = rows.get(label) ?? [];
    list.push(performance.now() - started);
    rows.set(label, list);
    return value;
  };
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    // As in lsp-latency: one edit per round, in a comment.
    text = text.replace(/\n\n/, `\n// round ${round}\n`);
    time('floor: verify, typescript-eslint, no-debugger', () => linter.verify(text, config(tsParser, { 'no-debugger': 'error' }), file));
    const raw = time('  oxc binding (parse, JSON string)', () => oxc.parseSync(file, text, OXC_OPTIONS));
    time('  oxc JSON.parse of the program', () => raw.program);
    const result = time('native parseForESLint (all of the parse)', () => parse(text));
    if (native.lastParse?.by !== 'native') throw new Error(`the native parser fell back: ${native.lastParse?.reason}`);
    time('  scope manager alone on that program', () => analyze(result.ast, { sourceType: 'module' }));
    prepared = parse(text);
    time('ESLint alone (parse made beforehand), no-debugger', () => linter.verify(text, config(preparedParser, { 'no-debugger': 'error' }), file));
    prepared = parse(text);
    time('ESLint + recommended rules (parse made beforehand)', () => linter.verify(text, config(preparedParser, recommended), file));
    time('verify, native parser, no-debugger', () => linter.verify(text, config(native.parser, { 'no-debugger': 'error' }), file));
    const started = performance.now();
    const linted = await core.lintText(text, file);
    const list = rows.get('lint core lintText (the server minus LSP)') ?? [];
    list.push(performance.now() - started);
    rows.set('lint core lintText (the server minus LSP)', list);
    if (linted.parsedBy !== 'oxc') throw new Error(`the lint core did not parse natively (${linted.parsedBy})`);
  }
  const floor = median(rows.get('floor: verify, typescript-eslint, no-debugger').slice(WARMUP));
  process.stdout.write(`${size} lines, ${ROUNDS} rounds, node ${process.version}: medians and ratio to the floor\n`);
  for (const [label, values] of rows) {
    const m = median(values.slice(WARMUP));
    process.stdout.write(`  ${label.padEnd(52)} ${m.toFixed(1).padStart(8)} ms  ${(m / floor).toFixed(2)}×\n`);
  }
}
