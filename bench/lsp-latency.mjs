// Latency and memory of the built language server (server/dist/server.js) over stdio, against the
// floor every ESLint-based server pays: Linter.verify with the parser and one trivial core rule.
//   node bench/lsp-latency.mjs [--edits 200] [--rss-edits 1000] [--no-typed] [--typed-only] [--sizes 1k,1k-declare,5k]
//                              [--against <copy of server/dist>/server.js] [--against-exec-argv "<flags>"] [--exec-argv "<flags>"]
// The server is started with the Node.js flags the extension starts it with (SERVER_EXEC_ARGV in
// server/src/protocol.ts); `--exec-argv` replaces them, `--against-exec-argv` gives the other
// build's (none by default: the extension started the server without flags before it had them).
// The server parses its syntactic path with oxc's native parser; ASYNC_HAZARDS_NATIVE_PARSER=off in
// the environment measures it with @typescript-eslint/parser instead. Each row says which parsed.
// Prints p50/p95/p99 per file and mode, the ratio to the floor measured in the same run (floor and
// server requests are interleaved so machine load hits both), time to first diagnostics, and RSS.
// `1k-declare` is the 1,000-line document with `declare function` helpers and overload signatures
// called from async code (bodiless callees the call graph must step over). `1k-imports` is a route
// module whose pool, lock, limiter, sleep and store come from the project's own modules (written
// next to it), which the rules read and analyse; for it the script also starts a fresh server and
// times its first diagnostics against the floor's first verify in a fresh process. A rule that crashes is
// switched off for that file, which would make a row look faster: crashes are counted and printed.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = require('vscode-jsonrpc/node');
const { Linter } = require('eslint');
const tsParser = require('@typescript-eslint/parser');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverPath = path.join(root, 'server', 'dist', 'server.js');
const corpus = path.join(root, 'bench', '.corpus', 'lsp');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const EDITS = flag('--edits', 200);
const RSS_EDITS = flag('--rss-edits', 1000);
const TYPED = !args.includes('--no-typed');
const SYNTACTIC = !args.includes('--typed-only');
const SIZES = args.includes('--sizes') ? args[args.indexOf('--sizes') + 1].split(',') : ['1k', '1k-declare', '1k-imports', '5k'];
// Another build's server.js (a copy of server/dist from an earlier commit), measured on the same edits.
const AGAINST = args.includes('--against') ? path.resolve(args[args.indexOf('--against') + 1]) : null;
const listFlag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1].split(' ').filter(Boolean) : null);
const { require: tsRequire } = require('tsx/cjs/api');
const EXEC_ARGV = listFlag('--exec-argv') ?? [...tsRequire('../server/src/protocol.ts', import.meta.url).SERVER_EXEC_ARGV];
const AGAINST_EXEC_ARGV = listFlag('--against-exec-argv') ?? [];
const LABELS = { '1k': '1k lines', '1k-declare': '1k lines, declare+overloads', '1k-imports': '1k lines, imports local modules', '5k': '5k lines' };

/** A service-like module: imports, types, classes, async functions, some hazards for the rules to find. */
function realisticFile(lines) {
  const head = [
    "import { readFileSync } from 'node:fs';",
    "import { readFile } from 'node:fs/promises';",
    "import { Mutex } from 'async-mutex';",
    '',
    'const lock = new Mutex();',
    'const cache = new Map<string, string>();',
    '',
  ];
  const block = (i) => [
    `export interface Ticket${i} {`,
    '  id: string;',
    '  subject: string;',
    '  tags: string[];',
    '}',
    '',
    `export async function load${i}(id: string): Promise<Ticket${i}> {`,
    `  const raw = await readFile(\`/data/\${id}-${i}.json\`, 'utf8');`,
    `  const parsed = JSON.parse(raw) as Ticket${i};`,
    '  if (!parsed.id) {',
    `    throw new Error('ticket ${i} has no id');`,
    '  }',
    '  return parsed;',
    '}',
    '',
    `export async function update${i}(ticket: Ticket${i}): Promise<void> {`,
    '  const release = await lock.acquire();',
    '  try {',
    '    cache.set(ticket.id, ticket.subject);',
    `    await load${i}(ticket.id);`,
    '  } finally {',
    '    release();',
    '  }',
    '}',
    '',
    `export class Service${i} {`,
    '  private readonly seen = new Set<string>();',
    '',
    '  async handle(ids: readonly string[]): Promise<number> {',
    '    let count = 0;',
    '    for (const id of ids.slice(0, 10)) {',
    `      const ticket = await load${i}(id);`,
    '      if (!this.seen.has(ticket.id)) {',
    '        this.seen.add(ticket.id);',
    '        count += ticket.tags.length;',
    '      }',
    '    }',
    '    return count;',
    '  }',
    '',
    '  describe(ticket: { subject: string }): string {',
    '    return `${ticket.subject} (${this.seen.size})`;',
    '  }',
    '}',
    '',
    `export async function legacy${i}(path: string): Promise<string> {`,
    `  return ${i % 10 === 0 ? 'readFileSync(path, "utf8")' : 'await readFile(path, "utf8")'};`,
    '}',
    '',
  ];
  const out = [...head];
  // Whole blocks only, so the file parses; comment lines make up the exact length.
  for (let i = 0; out.length + block(i).length <= lines; i++) out.push(...block(i));
  while (out.length < lines) out.push(`// padding ${out.length}`);
  return out.join('\n') + '\n';
}

/**
 * The same kind of module, typed the way code over untyped or native bindings is: `declare function`
 * helpers, overloaded functions and methods, all called from async functions.
 */
function declaredFile(lines) {
  const head = [
    "import { readFile } from 'node:fs/promises';",
    '',
    'interface Row { id: string; body: string; tags: string[] }',
    'declare function fetchRow(id: string): Promise<Row>;',
    'declare function fetchRow(id: string, fields: readonly string[]): Promise<Partial<Row>>;',
    'declare function digest(text: string): string;',
    'declare function audit(event: string): Promise<void>;',
    '',
  ];
  const block = (i) => [
    `declare function lookup${i}(key: string): Promise<string>;`,
    `declare function lookup${i}(key: string, fallback: string): Promise<string>;`,
    '',
    `export function pick${i}(id: string): Promise<Row>;`,
    `export function pick${i}(id: string, fields: readonly string[]): Promise<Partial<Row>>;`,
    `export function pick${i}(id: string, fields?: readonly string[]): Promise<Row | Partial<Row>> {`,
    '  return fields ? fetchRow(id, fields) : fetchRow(id);',
    '}',
    '',
    `export async function serve${i}(ids: readonly string[]): Promise<number> {`,
    `  const row = await pick${i}(ids[0] ?? '', ['id', 'body']);`,
    `  const key = digest(row.id ?? '${i}');`,
    `  const value = await lookup${i}(key, 'none');`,
    `  ${i % 10 === 0 ? "audit('served');" : "await audit('served');"}`,
    `  await Promise.all(ids.slice(0, 4).map((id) => lookup${i}(id)));`,
    '  return (row.body?.length ?? 0) + value.length;',
    '}',
    '',
    `export class Handler${i} {`,
    '  handle(id: string): Promise<string>;',
    '  handle(id: number): Promise<string>;',
    '  async handle(id: string | number): Promise<string> {',
    `    const text = await readFile(\`/data/\${id}-${i}.txt\`, 'utf8');`,
    `    return lookup${i}(text.trim());`,
    '  }',
    '',
    '  async run(ids: readonly number[]): Promise<void> {',
    '    for (const id of ids.slice(0, 3)) {',
    '      await this.handle(id);',
    '    }',
    `    await serve${i}(ids.map(String));`,
    '  }',
    '}',
    '',
  ];
  const out = [...head];
  for (let i = 0; out.length + block(i).length <= lines; i++) out.push(...block(i));
  while (out.length < lines) out.push(`// padding ${out.length}`);
  return out.join('\n') + '\n';
}

/** The project's own modules `importsFile` uses: a pg pool, a mutex and limiter, a retrying sleep, a JSON store. */
const LOCAL_MODULES = {
  'lib/db.ts': [
    "import { Pool } from 'pg';",
    '',
    'export const pool = new Pool({ max: 10 });',
    '',
    'export async function query<T>(text: string, params: unknown[] = []): Promise<T[]> {',
    '  const result = await pool.query(text, params);',
    '  return result.rows as T[];',
    '}',
  ],
  'lib/lock.ts': ["import { Mutex } from 'async-mutex';", "import pLimit from 'p-limit';", '', 'export const lock = new Mutex();', 'export const limit = pLimit(4);'],
  'lib/retry.ts': [
    'export function sleep(ms: number): Promise<void> {',
    '  return new Promise((resolve) => setTimeout(resolve, ms));',
    '}',
    '',
    'export async function withRetry<T>(task: () => Promise<T>, attempts = 3): Promise<T> {',
    '  for (let i = 0; ; i++) {',
    '    try {',
    '      return await task();',
    '    } catch (error) {',
    '      if (i + 1 >= attempts) throw error;',
    '      await sleep(100 * 2 ** i);',
    '    }',
    '  }',
    '}',
  ],
  'lib/store.ts': [
    "import { readFileSync, writeFileSync } from 'node:fs';",
    '',
    'export function load(): Record<string, string> {',
    "  return JSON.parse(readFileSync('/data/store.json', 'utf8')) as Record<string, string>;",
    '}',
    '',
    'export function save(data: Record<string, string>): void {',
    "  writeFileSync('/data/store.json', JSON.stringify(data));",
    '}',
  ],
};

/** A service module whose resources all come from the project's own modules. */
function importsFile(lines) {
  const head = [
    "import { pool, query } from './lib/db';",
    "import { lock, limit } from './lib/lock';",
    "import { sleep, withRetry } from './lib/retry';",
    "import { load, save } from './lib/store';",
    '',
  ];
  const block = (i) => [
    `export interface Order${i} { id: string; items: string[] }`,
    '',
    `export async function list${i}(owner: string): Promise<Order${i}[]> {`,
    `  return query<Order${i}>('select * from orders_${i} where owner = $1', [owner]);`,
    '}',
    '',
    `export async function move${i}(id: string, target: string): Promise<void> {`,
    '  const client = await pool.connect();',
    '  try {',
    `    await client.query('update orders_${i} set parent = $1 where id = $2', [target, id]);`,
    '  } finally {',
    '    client.release();',
    '  }',
    '}',
    '',
    `export async function refresh${i}(owner: string): Promise<number> {`,
    `  const orders = await list${i}(owner);`,
    `  const fresh = await Promise.all(orders.slice(0, 20).map((o) => limit(() => withRetry(() => list${i}(o.id)))));`,
    '  return fresh.length;',
    '}',
    '',
    `export async function reorder${i}(ids: readonly string[], target: string): Promise<void> {`,
    '  await lock.runExclusive(async () => {',
    `    for (const id of ids) await move${i}(id, target);`,
    '  });',
    `  ${i % 10 === 0 ? 'await sleep(10);' : 'return;'}`,
    '}',
    '',
    `export async function note${i}(id: string, text: string): Promise<string> {`,
    `  const data = ${i % 10 === 0 ? 'load()' : '{} as Record<string, string>'};`,
    '  data[id] = text;',
    `  ${i % 10 === 0 ? 'save(data);' : ''}`,
    '  return text;',
    '}',
    '',
  ];
  const out = [...head];
  for (let i = 0; out.length + block(i).length <= lines; i++) out.push(...block(i));
  while (out.length < lines) out.push(`// padding ${out.length}`);
  return out.join('\n') + '\n';
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
};
const ms = (n) => `${n.toFixed(1)} ms`;

async function rssKb(pid) {
  const status = await fs.promises.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

async function startServer(folder, settings, file = serverPath, execArgv = EXEC_ARGV) {
  const started = performance.now();
  const child = spawn(process.execPath, [...execArgv, file, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onRequest((method, params) => {
    if (method === 'workspace/configuration') return params.items.map(() => settings);
    // A rule crash is told once per rule as an error message.
    if (method === 'window/showMessageRequest' && / failed on /.test(params.message)) crashes.push(params.message);
    return null;
  });
  const lintTimes = [];
  const crashes = [];
  // Which parser served each lint: a native parser that silently fell back would look like a regression.
  const parsers = new Map();
  connection.onNotification('asyncHazards/status', (params) => {
    if (params.state === 'ready' && typeof params.lastLintMs === 'number') lintTimes.push(params.lastLintMs);
    if (params.state === 'ready' && params.parser) parsers.set(params.parser, (parsers.get(params.parser) ?? 0) + 1);
  });
  connection.onNotification(() => undefined);
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(folder).href,
    workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'corpus' }],
    capabilities: { workspace: { configuration: true }, textDocument: { diagnostic: {} }, window: { workDoneProgress: false } },
    initializationOptions: {},
  });
  await connection.sendNotification('initialized', {});
  return { child, connection, started, lintTimes, crashes, parsers };
}

/** One edit: a character typed into a comment line, as incremental sync sends it. */
function editAt(text, n) {
  const lines = text.split('\n');
  // Edit the padding-free body: replace a blank line between blocks with a comment.
  const blanks = [];
  for (let i = 7; i < lines.length; i++) if (lines[i] === '' || lines[i].startsWith('// edit')) blanks.push(i);
  const line = blanks[(n * 37) % blanks.length];
  const newText = `// edit ${n}`;
  const next = [...lines.slice(0, line), newText, ...lines.slice(line + 1)].join('\n');
  return { next, change: { range: { start: { line, character: 0 }, end: { line, character: lines[line].length } }, text: newText } };
}

function floorVerify(linter, text, filename) {
  const t = performance.now();
  linter.verify(text, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, rules: { 'no-debugger': 'error' } }], filename);
  return performance.now() - t;
}

async function measure(server, file, text, edits, warmup) {
  const [r] = await measureAll([server], file, text, edits, warmup);
  return r;
}

/**
 * Every server gets the same edits, one after the other after the floor's verify of the same
 * text, the order turning each edit, so a second build (`--against`) meets the same load.
 */
async function measureAll(servers, file, text, edits, warmup) {
  const uri = pathToFileURL(file).href;
  const linter = new Linter({ cwd: path.dirname(file) });
  const runs = [];
  for (const server of servers) {
    const crashesBefore = server.crashes.length;
    await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text } });
    const firstStart = performance.now();
    await server.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    runs.push({ server, crashesBefore, first: performance.now() - firstStart, times: [], findings: 0 });
    server.lintTimes.length = 0;
    server.parsers.clear();
  }
  const floor = [];
  let current = text;
  let version = 1;
  for (let n = 0; n < warmup + edits; n++) {
    const { next, change } = editAt(current, n);
    current = next;
    version++;
    const floorMs = floorVerify(linter, current, file);
    for (let k = 0; k < runs.length; k++) {
      const run = runs[(n + k) % runs.length];
      await run.server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
      const t = performance.now();
      const report = await run.server.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
      const serverMs = performance.now() - t;
      run.findings = report.items.length;
      if (n >= warmup) run.times.push(serverMs);
    }
    if (n >= warmup) floor.push(floorMs);
  }
  return Promise.all(
    runs.map(async (run) => {
      await run.server.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
      const parsedBy = [...run.server.parsers].map(([name, count]) => `${name} ×${count}`).join(', ') || 'unknown';
      return { first: run.first, server: stats(run.times), floor: stats(floor), findings: run.findings, core: stats(run.server.lintTimes.slice(warmup)), crashes: run.server.crashes.slice(run.crashesBefore), parsedBy };
    }),
  );
}

function report(label, r) {
  const ratio = (k) => (r.server[k] / r.floor[k]).toFixed(2);
  process.stdout.write(
    `${label.padEnd(40)} first ${ms(r.first).padStart(10)} | server p50 ${ms(r.server.p50)} p95 ${ms(r.server.p95)} p99 ${ms(r.server.p99)}` +
      ` | floor p50 ${ms(r.floor.p50)} p95 ${ms(r.floor.p95)} p99 ${ms(r.floor.p99)} | ratio p50 ${ratio('p50')}× p99 ${ratio('p99')}× | lint core inside the server p50 ${ms(r.core.p50)} | ${r.findings} findings | parsed by ${r.parsedBy}\n`,
  );
  // Told once per rule per server, so a crash shows on the first row that hit it.
  for (const message of r.crashes) process.stdout.write(`  rule crash: ${message}\n`);
}

async function main() {
  await fs.promises.access(serverPath).catch(() => {
    throw new Error('run npm run build first');
  });
  const files = {
    '1k': path.join(corpus, 'src', 'service1k.ts'),
    '1k-declare': path.join(corpus, 'src', 'declared1k.ts'),
    '1k-imports': path.join(corpus, 'src', 'routes1k.ts'),
    '5k': path.join(corpus, 'src', 'service5k.ts'),
  };
  await fs.promises.mkdir(path.join(corpus, 'src', 'lib'), { recursive: true });
  for (const [relative, lines] of Object.entries(LOCAL_MODULES)) {
    await fs.promises.writeFile(path.join(corpus, 'src', relative), `${lines.join('\n')}\n`);
  }
  const texts = { '1k': realisticFile(1000), '1k-declare': declaredFile(1000), '1k-imports': importsFile(1000), '5k': realisticFile(5000) };
  for (const key of Object.keys(files)) await fs.promises.writeFile(files[key], texts[key]);
  await fs.promises.writeFile(path.join(corpus, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, noEmit: true, types: [] }, include: ['src'] }));
  process.stdout.write(`async-hazards language server latency: ${EDITS} edits per file, node ${process.version}, server flags: ${EXEC_ARGV.join(' ') || 'none'}${AGAINST ? `, the other build's: ${AGAINST_EXEC_ARGV.join(' ') || 'none'}` : ''}\n`);

  if (SYNTACTIC && SIZES.includes('1k-imports')) await firstDiagnostics(files['1k-imports'], texts['1k-imports']);
  if (SYNTACTIC) await syntacticRuns(files, texts);
  if (TYPED) {
    const typed = await startServer(corpus, { typeAware: 'auto' });
    for (const key of SIZES) report(`type-aware ${LABELS[key]}`, await measure(typed, files[key], texts[key], EDITS, 20));
    typed.connection.dispose();
    typed.child.kill();
  }
  process.stdout.write('goals: syntactic p50 ≤ 1.3× and p99 ≤ 3× the floor (1.3× also with local imports); with the native parser (1k and 5k) p50 ≤ 0.6× and p99 ≤ 1.5×; first diagnostics with local imports ≤ 2× the floor; type-aware p50 ≤ 3× after warm-up; RSS growth ≤ 10 %\n');
}

/**
 * Opening a document that imports local modules, with nothing cached: a fresh server's time from
 * didOpen to its diagnostics, against the floor's first verify of the same text in a fresh process.
 */
async function firstDiagnostics(file, text) {
  const rounds = 5;
  const ours = [];
  const floor = [];
  const floorScript = [
    "const { Linter } = require('eslint');",
    "const parser = require('@typescript-eslint/parser');",
    "const text = require('fs').readFileSync(process.argv[1], 'utf8');",
    'const t = performance.now();',
    "new Linter().verify(text, [{ files: ['**/*.ts'], languageOptions: { parser }, rules: { 'no-debugger': 'error' } }], process.argv[1]);",
    'console.log(performance.now() - t);',
  ].join('\n');
  for (let n = 0; n < rounds; n++) {
    const server = await startServer(corpus, { typeAware: 'off' });
    const uri = pathToFileURL(file).href;
    const t = performance.now();
    await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text } });
    await server.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    ours.push(performance.now() - t);
    server.connection.dispose();
    server.child.kill();
    const child = spawn(process.execPath, ['-e', floorScript, file], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    await new Promise((resolve) => child.on('close', resolve));
    floor.push(Number(out.trim()));
  }
  const p50 = (xs) => stats(xs).p50;
  process.stdout.write(
    `first diagnostics, 1k lines importing local modules, nothing cached (median of ${rounds} fresh starts): server ${ms(p50(ours))} | floor's first verify ${ms(p50(floor))} | ratio ${(p50(ours) / p50(floor)).toFixed(2)}×\n`,
  );
}

async function syntacticRuns(files, texts) {
  const syntactic = await startServer(corpus, { typeAware: 'off' });
  const against = AGAINST ? await startServer(corpus, { typeAware: 'off' }, AGAINST, AGAINST_EXEC_ARGV) : null;
  const ttfd = performance.now();
  for (const key of SIZES) {
    const [r, other] = await measureAll(against ? [syntactic, against] : [syntactic], files[key], texts[key], EDITS, 10);
    if (key === '1k') process.stdout.write(`time to first diagnostics after start: ${ms(ttfd - syntactic.started + r.first)}\n`);
    report(`syntactic ${LABELS[key]}`, r);
    if (other) report(`  against ${args[args.indexOf('--against') + 1]}`, other);
  }
  if (against) {
    against.connection.dispose();
    against.child.kill();
  }

  // RSS over many edits of the 1,000-line file.
  const uri = pathToFileURL(files['1k']).href;
  await syntactic.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: texts['1k'] } });
  let current = texts['1k'];
  let version = 1;
  const step = async (n) => {
    const { next, change } = editAt(current, n);
    current = next;
    version++;
    await syntactic.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
    await syntactic.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  };
  for (let n = 0; n < 50; n++) await step(n);
  const before = await rssKb(syntactic.child.pid);
  for (let n = 0; n < RSS_EDITS; n++) await step(n + 50);
  const afterRss = await rssKb(syntactic.child.pid);
  process.stdout.write(`RSS before ${(before / 1024).toFixed(1)} MB, after ${RSS_EDITS} edits ${(afterRss / 1024).toFixed(1)} MB: ${(((afterRss - before) / before) * 100).toFixed(1)} % growth\n`);
  syntactic.connection.dispose();
  syntactic.child.kill();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
