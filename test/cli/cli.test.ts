import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'node_modules', '.bin', 'async-hazards');
const SAMPLES = path.join(ROOT, 'samples');
const RULES = ['release-in-finally', 'no-sleep-holding-permit', 'no-blocking-in-async', 'no-orphaned-promise', 'no-unbounded-fan-out'];

interface JsonMessage { ruleId: string | null; line: number; column: number; severity: number; fatal?: boolean; message: string; fix?: unknown }
interface JsonReport { filePath: string; messages: JsonMessage[]; errorCount: number; warningCount: number; fixableErrorCount: number }

function run(args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(BIN, args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json(args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = {}): { status: number | null; reports: JsonReport[]; stderr: string } {
  const result = run([...args, '--format', 'json'], cwd, env);
  return { status: result.status, reports: JSON.parse(result.stdout) as JsonReport[], stderr: result.stderr };
}

let baseline: { status: number | null; reports: JsonReport[]; stderr: string } | undefined;
/** `async-hazards samples/ --format json`, run once and shared by the tests that compare against it. */
function samplesJson(): { status: number | null; reports: JsonReport[]; stderr: string } {
  baseline ??= json(['samples/']);
  return baseline;
}

function byRule(reports: JsonReport[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of reports.flatMap((r) => r.messages)) counts.set(m.ruleId ?? 'fatal', (counts.get(m.ruleId ?? 'fatal') ?? 0) + 1);
  return counts;
}

const temps: string[] = [];
after(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** A scratch project outside the repository; node_modules links back so its eslint.config.mjs resolves the plugin. */
function scratch(files: Record<string, string> = {}, withSamples = false): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'async-hazards-cli-'));
  temps.push(dir);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  if (withSamples) fs.cpSync(SAMPLES, dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const HAZARD = `import { readFileSync } from 'node:fs';\nexport async function load(p: string) {\n  return readFileSync(p, 'utf8');\n}\n`;

/** The real plugin with one rule that throws on a marked identifier, through the CLI's test hook; four files trip it. */
function crashingProject(): string {
  const crashing = `const plugin = require(${JSON.stringify(path.join(ROOT, 'eslint-plugin', 'dist', 'index.js'))});
const broken = {
  ...plugin.rules['no-unbounded-fan-out'],
  create: () => ({ Identifier(node) { if (node.name === 'explode') throw new Error('rule bug on explode'); } }),
};
module.exports = { ...plugin, rules: { ...plugin.rules, 'no-unbounded-fan-out': broken } };
`;
  const exploding = 'export const explode = 1;\n';
  return scratch({ 'crashing-plugin.cjs': crashing, 'src/a.ts': exploding, 'src/b.ts': exploding, 'src/c.ts': exploding, 'src/d.ts': exploding, 'src/hazard.ts': HAZARD });
}

describe('async-hazards CLI on samples/', () => {
  it('reports every rule and exits 1', () => {
    const { status, reports } = samplesJson();
    assert.equal(status, 1);
    const counts = byRule(reports);
    for (const rule of RULES) assert.ok((counts.get(`async-hazards/${rule}`) ?? 0) >= 1, `no finding from ${rule}: ${JSON.stringify([...counts])}`);
    assert.ok(!counts.has('fatal'), 'samples parse');
    assert.ok(reports.every((r) => !r.filePath.includes('node_modules')));
  });

  it('stylish output names file, position, message and rule, and a summary line', () => {
    const { status, stdout } = run(['samples/src/worker.ts']);
    assert.equal(status, 1);
    assert.match(stdout, /samples\/src\/worker\.ts/);
    assert.match(stdout, /\d+:\d+\s+error\s+.*async-hazards\/release-in-finally/);
    assert.match(stdout, /✖ \d+ problems? \(\d+ errors?, 0 warnings\)/);
  });

  it('a clean folder exits 0 with no output', () => {
    const dir = scratch({ 'src/ok.ts': 'export async function ok(): Promise<number> {\n  return 1;\n}\n' });
    const result = run(['.'], dir);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, '');
  });
});

describe('formats', () => {
  it('sarif validates against the SARIF 2.1.0 schema subset and carries every finding', () => {
    const sarif = run(['samples/', '--format', 'sarif']);
    assert.equal(sarif.status, 1);
    const log = JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; relatedLocations?: unknown[] }[]; tool: { driver: { rules: { id: string }[] } } }[] };
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, 'sarif-2.1.0-subset.schema.json'), 'utf8')) as object;
    const valid = ajv.validate(schema, log);
    assert.ok(valid, ajv.errorsText(ajv.errors));
    const { reports } = samplesJson();
    const total = reports.reduce((n, r) => n + r.messages.length, 0);
    const [firstRun] = log.runs;
    assert.ok(firstRun);
    assert.equal(firstRun.results.length, total);
    assert.ok(firstRun.results.some((r) => (r.relatedLocations?.length ?? 0) > 0), 'evidence becomes related locations');
    for (const r of firstRun.results) assert.ok(firstRun.tool.driver.rules.some((d) => d.id === r.ruleId));
  });

  it('github prints one workflow-command annotation per finding', () => {
    const result = run(['samples/', '--format', 'github']);
    assert.equal(result.status, 1);
    const lines = result.stdout.trim().split('\n');
    const { reports } = samplesJson();
    assert.equal(lines.length, reports.reduce((n, r) => n + r.messages.length, 0));
    for (const line of lines) {
      const match = /^::(error|warning) file=([^,]+),line=(\d+),col=(\d+),endLine=\d+,endColumn=\d+,title=(async-hazards%3A|async-hazards\/)?[\w/-]+::.+$/.exec(line);
      assert.ok(match, line);
      assert.ok(fs.existsSync(path.join(ROOT, match[2] as string)), match[2]);
    }
  });

  it('--output-file writes the report instead of printing it', () => {
    const dir = scratch();
    const target = path.join(dir, 'out', 'report.json');
    const result = run(['samples/src/batch.ts', '--format', 'json', '--output-file', target]);
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    assert.ok((JSON.parse(fs.readFileSync(target, 'utf8')) as JsonReport[])[0]?.messages.length);
  });
});

describe('rule flags', () => {
  it('--rule turns a rule off, with or without the prefix', () => {
    const base = byRule(samplesJson().reports);
    assert.ok(base.get('async-hazards/no-orphaned-promise'));
    const off = byRule(json(['samples/', '--rule', 'no-orphaned-promise=off']).reports);
    assert.equal(off.get('async-hazards/no-orphaned-promise'), undefined);
    const offPrefixed = byRule(json(['samples/', '--rule', 'async-hazards/no-unbounded-fan-out=off']).reports);
    assert.equal(offPrefixed.get('async-hazards/no-unbounded-fan-out'), undefined);
    assert.equal(offPrefixed.get('async-hazards/no-orphaned-promise'), base.get('async-hazards/no-orphaned-promise'));
  });

  it('--strict reports what recommended leaves out for context; a config that sets a preset wins', () => {
    const entry = `import { readFileSync } from 'node:fs';\nasync function main() {\n  const key = readFileSync('key.pem');\n  return key;\n}\nmain();\n`;
    const dir = scratch({ 'package.json': '{ "name": "entry", "private": true }\n', 'src/main.ts': entry });
    const ids = (args: string[]): string[] => json(args, dir).reports.flatMap((r) => r.messages.map((m) => `${m.ruleId}:${m.line}`)).sort();
    assert.deepEqual(ids(['src/']), [], 'recommended: startup code and an entry start are left alone');
    assert.deepEqual(ids(['src/', '--strict']), ['async-hazards/no-blocking-in-async:3', 'async-hazards/no-orphaned-promise:6']);
    fs.writeFileSync(
      path.join(dir, 'eslint.config.mjs'),
      "import asyncHazards from 'eslint-plugin-async-hazards';\nexport default [asyncHazards.configs.recommended, { settings: { 'async-hazards': { preset: 'recommended' } } }];\n",
    );
    assert.deepEqual(ids(['src/', '--strict']), [], 'the project config says recommended');
  });

  it('--one-shot and --long-lived are relative to the working directory; the config\'s globs to its folder', () => {
    const dir = scratch({
      'package.json': '{ "name": "roles", "private": true, "scripts": { "sync": "tsx tools/sync.ts" } }\n',
      'src/api.ts': HAZARD,
      'tools/sync.ts': HAZARD,
    });
    const ids = (args: string[], cwd = dir): string[] =>
      json(args, cwd).reports.flatMap((r) => r.messages.map((m) => `${path.relative(dir, r.filePath)}:${m.line}`)).sort();
    assert.deepEqual(ids(['.']), ['src/api.ts:3'], 'a package.json script is one-shot');
    assert.deepEqual(ids(['.', '--strict']), ['src/api.ts:3', 'tools/sync.ts:3']);
    assert.deepEqual(ids(['.', '--long-lived', 'tools/**']), ['src/api.ts:3', 'tools/sync.ts:3']);
    assert.deepEqual(ids(['.', '--one-shot', 'src/*.ts']), []);
    assert.deepEqual(ids(['.', '--one-shot', 'api.ts'], path.join(dir, 'src')), [], 'relative to the working directory');
    assert.deepEqual(ids(['.', '--one-shot', 'src/*.ts', '--long-lived', 'src/api.ts']), ['src/api.ts:3'], 'long-lived wins');
    assert.equal(run(['.', '--one-shot'], dir).status, 2);
    fs.writeFileSync(
      path.join(dir, 'eslint.config.mjs'),
      "import asyncHazards from 'eslint-plugin-async-hazards';\nexport default [asyncHazards.configs.recommended, { settings: { 'async-hazards': { oneShot: ['src/api.ts'] } } }];\n",
    );
    assert.deepEqual(ids(['.'], path.join(dir, 'src')), [], "the config's globs are read from its own folder");
    fs.writeFileSync(
      path.join(dir, 'eslint.config.mjs'),
      "import asyncHazards from 'eslint-plugin-async-hazards';\nexport default [asyncHazards.configs.recommended, { settings: { 'async-hazards': { oneShot: 5 } } }];\n",
    );
    const invalid = json(['src/api.ts'], dir);
    assert.equal(invalid.status, 1);
    assert.deepEqual(invalid.reports[0]?.messages.map((m) => m.message), [
      "settings['async-hazards'].oneShot must be an array of glob strings; it is ignored.",
      '`fs.readFileSync` blocks the event loop in async function `load` (line 2): every other request, timer and health check in this process waits until it returns. Use its asynchronous form.',
    ]);
  });

  it('json and sarif say which role and phase each finding was judged in', () => {
    const dir = scratch({
      'package.json': '{ "name": "roles", "private": true, "scripts": { "sync": "tsx tools/sync.ts" } }\n',
      'src/api.ts': HAZARD,
      'tools/sync.ts': HAZARD,
    });
    const strict = json(['.', '--strict'], dir).reports;
    const contexts = strict
      .flatMap((r) => r.messages.map((m) => [path.relative(dir, r.filePath), (m as JsonMessage & { context?: unknown }).context]))
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    assert.deepEqual(contexts, [['src/api.ts', { role: 'long-lived', phase: 'serving' }], ['tools/sync.ts', { role: 'one-shot', phase: null }]]);
    // The message says the cost in that context: every other request in a server, only the script in a script.
    const messages = Object.fromEntries(strict.flatMap((r) => r.messages.map((m) => [path.relative(dir, r.filePath), m.message])));
    assert.deepEqual(messages, {
      'src/api.ts': '`fs.readFileSync` blocks the event loop in async function `load` (line 2): every other request, timer and health check in this process waits until it returns. Use its asynchronous form.',
      'tools/sync.ts': '`fs.readFileSync` blocks the event loop in async function `load` (line 2): the script waits until it returns, and so does any other work the script has in flight; nothing outside the script waits. Use its asynchronous form.',
    });
    const sarif = JSON.parse(run(['.', '--strict', '--format', 'sarif'], dir).stdout) as { runs: { results: { properties?: unknown; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    const byFile = Object.fromEntries(sarif.runs[0]!.results.map((r) => [r.locations[0]!.physicalLocation.artifactLocation.uri, r.properties]));
    assert.deepEqual(byFile, {
      'src/api.ts': { context: { role: 'long-lived', phase: 'serving' } },
      'tools/sync.ts': { context: { role: 'one-shot', phase: null } },
    });
  });

  it('a finding on a route handler written at module top level is judged where the handler runs: serving', () => {
    const dir = scratch({
      'package.json': '{ "name": "routes", "private": true, "dependencies": { "express": "^4.18.2" } }\n',
      'src/orders.js':
        "const router = require('express').Router();\nconst db = require('./db');\n\nrouter.post('/', async (req, res) => {\n  const order = await db.insert(req.body);\n  res.json(order);\n});\n\nmodule.exports = router;\n",
    });
    const messages = json(['src/orders.js'], dir).reports.flatMap((r) => r.messages as (JsonMessage & { context?: unknown })[]);
    assert.deepEqual(messages.map((m) => [m.ruleId, m.line, m.context]), [['async-hazards/no-orphaned-promise', 4, { role: 'long-lived', phase: 'serving' }]]);
  });

  it('warnings pass unless --max-warnings is exceeded; --quiet hides them', () => {
    const args = ['samples/src/batch.ts', '--rule', 'no-unbounded-fan-out=warn'];
    const warn = json(args);
    assert.equal(warn.status, 0);
    assert.ok(warn.reports[0]?.warningCount);
    assert.equal(run([...args, '--max-warnings', '0']).status, 1);
    assert.equal(run([...args, '--max-warnings', '99']).status, 0);
    const quiet = json([...args, '--quiet']);
    assert.equal(quiet.reports[0]?.messages.length, 0);
  });
});

describe('--fix', () => {
  it('applies only autofixes, and a second run no longer reports what was fixed', () => {
    const dir = scratch({}, true);
    const before = json(['src/'], dir).reports;
    const fixable = before.flatMap((r) => r.messages.filter((m) => m.fix).map((m) => `${path.basename(r.filePath)}:${m.ruleId}`));
    assert.ok(fixable.length > 0, 'samples have autofixable findings');
    assert.ok(fixable.every((f) => f.endsWith('async-hazards/release-in-finally')), fixable.join());
    const fixedFiles = new Set(before.filter((r) => r.messages.some((m) => m.fix)).map((r) => r.filePath));
    const snapshot = new Map(before.map((r) => [r.filePath, fs.readFileSync(r.filePath, 'utf8')]));

    const dry = json(['src/', '--fix-dry-run'], dir).reports;
    assert.ok(dry.some((r) => typeof (r as { output?: string }).output === 'string'));
    for (const [file, text] of snapshot) assert.equal(fs.readFileSync(file, 'utf8'), text, 'dry run writes nothing');

    run(['src/', '--fix'], dir);
    for (const [file, text] of snapshot) {
      const now = fs.readFileSync(file, 'utf8');
      if (fixedFiles.has(file)) {
        assert.notEqual(now, text, `${file} was fixed`);
        assert.match(now, /finally/);
      } else {
        assert.equal(now, text, `${file} untouched`);
      }
    }
    const afterRun = json(['src/'], dir).reports;
    const remaining = afterRun.flatMap((r) => r.messages);
    assert.equal(remaining.filter((m) => m.fix).length, 0);
    assert.equal(remaining.filter((m) => m.fatal).length, 0, 'fixed files parse');
    assert.equal(remaining.length, before.flatMap((r) => r.messages).length - fixable.length);
  });
});

describe('--cache', () => {
  it('gives the same findings on a second run and notices a changed file', () => {
    const dir = scratch({}, true);
    const first = json(['src/', '--cache'], dir);
    assert.ok(fs.existsSync(path.join(dir, '.async-hazards-cache')));
    const second = json(['src/', '--cache'], dir);
    assert.deepEqual(second.reports, first.reports);
    fs.appendFileSync(path.join(dir, 'src', 'extra.ts'), HAZARD);
    const third = json(['src/', '--cache'], dir);
    assert.equal(byRule(third.reports).get('async-hazards/no-blocking-in-async'), (byRule(first.reports).get('async-hazards/no-blocking-in-async') ?? 0) + 1);
  });

  it('starts over when any flat config file changes, eslint.config.mts included', () => {
    const dir = scratch({ 'src/a.ts': HAZARD });
    assert.equal(byRule(json(['src/', '--cache'], dir).reports).get('async-hazards/no-blocking-in-async'), 1);
    fs.writeFileSync(path.join(dir, 'eslint.config.mts'), [
      "import asyncHazards from 'eslint-plugin-async-hazards';",
      "const off: 'off' = 'off';",
      "export default [asyncHazards.configs.recommended, { rules: { 'async-hazards/no-blocking-in-async': off } }];",
    ].join('\n'));
    assert.equal(byRule(json(['src/', '--cache'], dir).reports).get('async-hazards/no-blocking-in-async'), undefined);
  });
});

/** An express app with its own node_modules (no link back to ours, so a test may rewrite it). */
function expressApp(installed: string | null, declared: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'async-hazards-cli-'));
  temps.push(dir);
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'app', dependencies: { express: declared } }),
    // An async route that can reject outside any `try`: Express 4 drops the rejection, Express 5 handles it.
    'src/app.js': "const express = require('express');\nconst app = express();\napp.get('/', async (req, res) => {\n  res.send(await load(req.params.id));\n});\nasync function load(id) {\n  return (await fetch(`http://users/${id}`)).json();\n}\napp.listen(3000);\n",
  };
  if (installed) {
    files['node_modules/express/package.json'] = JSON.stringify({ name: 'express', version: installed, main: 'index.js' });
    files['node_modules/express/index.js'] = 'module.exports = function express() {};\n';
  }
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('--cache and the files a lint read', () => {
  const orphaned = (dir: string): number => byRule(json(['src/', '--cache'], dir).reports).get('async-hazards/no-orphaned-promise') ?? 0;

  it('lints a file again when the express it imports is upgraded in node_modules, though the file did not change', () => {
    const dir = expressApp('4.21.2', '^4.18.0');
    assert.equal(orphaned(dir), 1);
    assert.equal(orphaned(dir), 1, 'from the cache');
    fs.writeFileSync(path.join(dir, 'node_modules/express/package.json'), JSON.stringify({ name: 'express', version: '5.1.0', main: 'index.js' }));
    assert.equal(orphaned(dir), 0);
    const cache = JSON.parse(fs.readFileSync(path.join(dir, '.async-hazards-cache'), 'utf8')) as { files: Record<string, { reads: Array<{ path: string; state: string }> }> };
    const reads = cache.files[path.join(fs.realpathSync(dir), 'src/app.js')]?.reads ?? cache.files[path.join(dir, 'src/app.js')]?.reads;
    assert.ok(reads?.some((r) => r.path.endsWith(path.join('node_modules', 'express', 'package.json')) && /^[0-9a-f]{40}$/.test(r.state)), JSON.stringify(reads));
  });

  it('lints a file again when the declared range changes, or when the package gets installed', () => {
    const dir = expressApp(null, '^4.18.0');
    assert.equal(orphaned(dir), 1);
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', dependencies: { express: '^5.0.0' } }));
    assert.equal(orphaned(dir), 0);
    // The installed package wins over the range; it was a missing path in the last lint's reads.
    fs.mkdirSync(path.join(dir, 'node_modules/express'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules/express/package.json'), JSON.stringify({ name: 'express', version: '4.21.2' }));
    assert.equal(orphaned(dir), 1);
  });
});

describe('suppressions baseline', () => {
  it('hides existing findings, and a newly added hazard still fails', () => {
    const dir = scratch({}, true);
    const adopt = run(['src/', '--suppress-all'], dir);
    assert.equal(adopt.status, 0, adopt.stdout + adopt.stderr);
    const file = path.join(dir, 'async-hazards-suppressions.json');
    const recorded = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, { count: number }>>;
    assert.ok(recorded['src/worker.ts']?.['async-hazards/release-in-finally']?.count);
    assert.equal(run(['src/'], dir).status, 0);

    fs.writeFileSync(path.join(dir, 'src', 'newcode.ts'), HAZARD);
    const fresh = json(['src/'], dir);
    assert.equal(fresh.status, 1);
    const shown = fresh.reports.filter((r) => r.messages.length > 0);
    assert.deepEqual(shown.map((r) => path.basename(r.filePath)), ['newcode.ts']);

    fs.rmSync(path.join(dir, 'src', 'batch.ts'));
    run(['src/', '--prune-suppressions'], dir);
    const pruned = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    assert.equal(pruned['src/batch.ts'], undefined);
    assert.ok(pruned['src/worker.ts']);
  });
});

describe('helpers from the project\'s own modules', () => {
  it('reports a retry helper in utils/ reached from limit(() => …) in another file, with the chain in SARIF', () => {
    const dir = scratch();
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'sleep-helpers'), dir, { recursive: true });
    const { status, reports } = json(['.', '--rule', 'no-orphaned-promise=off', '--rule', 'no-unbounded-fan-out=off'], dir);
    assert.equal(status, 1);
    const found = reports.flatMap((r) => r.messages.map((m) => ({ file: path.relative(dir, r.filePath), ...m })));
    assert.deepEqual(
      found.map((m) => `${m.file}:${m.line}:${m.column} ${m.ruleId}`),
      [`src${path.sep}jobs${path.sep}sync.ts:7:22 async-hazards/no-sleep-holding-permit`],
    );
    assert.match(found[0]?.message ?? '', /^`withRetry` from `\.\.\/utils\/retry` backs off between attempts \(`await sleep\(250 \* 2 \*\* attempt\)`, line 9 of \.\.\/utils\/retry\.ts\)/);

    const sarif = run(['.', '--format', 'sarif', '--rule', 'no-orphaned-promise=off', '--rule', 'no-unbounded-fan-out=off'], dir);
    type Location = { message?: { text: string }; physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } };
    const log = JSON.parse(sarif.stdout) as { runs: { results: { relatedLocations?: Location[] }[] }[] };
    const related = (log.runs[0]?.results[0]?.relatedLocations ?? []).map((l) => `${l.physicalLocation.artifactLocation.uri}:${l.physicalLocation.region.startLine} ${l.message?.text ?? ''}`);
    assert.deepEqual(related, [
      'src/jobs/sync.ts:7 permit taken here',
      'src/utils/retry.ts:9 backs off here',
      'src/utils/sleep.ts:2 the timer it waits for',
    ]);
  });
});

describe('--type-aware', () => {
  it('finds the cross-file orphaned promise with types as without them (module summaries), and types drop nothing', () => {
    const plain = json(['samples/src/scheduler.ts']);
    const typed = json(['samples/src/scheduler.ts', '--type-aware']);
    const count = (reports: JsonReport[]): number => byRule(reports).get('async-hazards/no-orphaned-promise') ?? 0;
    assert.equal(typed.status, 1);
    assert.ok(count(plain.reports) >= 1, 'the imported async function is read in its module');
    assert.ok(count(typed.reports) >= count(plain.reports), `${count(typed.reports)} vs ${count(plain.reports)}`);
  });

  it('falls back to syntactic linting with a warning when no tsconfig covers a file', () => {
    const dir = scratch({ 'a.ts': HAZARD });
    const result = json(['.', '--type-aware'], dir);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /warning: no type information/);
    assert.equal(byRule(result.reports).get('async-hazards/no-blocking-in-async'), 1);
  });
});

describe('errors', () => {
  const oneLine = (stderr: string): void => {
    assert.equal(stderr.trim().split('\n').length, 1, stderr);
    assert.match(stderr, /^async-hazards: /);
    assert.doesNotMatch(stderr, /\n\s+at /);
  };

  it('a bad flag exits 2 with one line', () => {
    const result = run(['--no-such-flag']);
    assert.equal(result.status, 2);
    oneLine(result.stderr);
    assert.match(result.stderr, /--no-such-flag/);
  });

  it('a bad --rule value exits 2', () => {
    const result = run(['--rule', 'no-orphaned-promise=loud']);
    assert.equal(result.status, 2);
    oneLine(result.stderr);
  });

  it('a missing path exits 2 naming it', () => {
    const result = run(['does/not/exist']);
    assert.equal(result.status, 2);
    oneLine(result.stderr);
    assert.match(result.stderr, /does\/not\/exist/);
  });

  it('a broken config exits 2 naming the file', () => {
    const dir = scratch({ 'eslint.config.mjs': "throw new Error('config exploded');\n", 'a.ts': HAZARD });
    const result = run(['.'], dir);
    assert.equal(result.status, 2);
    oneLine(result.stderr);
    assert.match(result.stderr, /eslint\.config\.mjs.*config exploded/);
  });

  it('--config with a missing file exits 2', () => {
    const result = run(['samples/', '--config', 'nope.config.mjs']);
    assert.equal(result.status, 2);
    oneLine(result.stderr);
  });

  it('a file with a syntax error is reported and the rest still linted', () => {
    const dir = scratch({ 'broken.ts': 'export async function (\n', 'a.ts': HAZARD });
    const result = json(['.'], dir);
    assert.equal(result.status, 1);
    const broken = result.reports.find((r) => r.filePath.endsWith('broken.ts'));
    assert.equal(broken?.messages[0]?.fatal, true);
    assert.equal(byRule(result.reports).get('async-hazards/no-blocking-in-async'), 1);
  });

  it('a Flow file (the @flow pragma) is parsed as Flow; the same syntax without the pragma is a syntax error', () => {
    // A type cast `(value: Type)` is Flow's alone: typescript-eslint's parser rejects it.
    const flow = (pragma: string) => `${pragma}import { readFileSync } from 'node:fs';
type Job = { id: string };
export async function load(p: ?string): Promise<*> {
  const job = ({ id: p ?? 'x' }: Job);
  return readFileSync(job.id, 'utf8');
}
class Worker {
  run(job: Job): Promise<void> { return fetch(job.id).then(() => {}); }
  start(): void { this.run({ id: 'a' }); }
}
export default Worker;
`;
    const dir = scratch({ 'flow.js': flow('// @flow\n'), 'block.js': flow('/**\n * Jobs.\n * @flow strict\n */\n'), 'plain.js': flow(''), 'noflow.js': flow('// @noflow\n') });
    const result = json(['.', '--strict'], dir);
    const rules = (name: string) => result.reports.find((r) => r.filePath.endsWith(name))?.messages.map((m) => m.ruleId ?? 'fatal').sort();
    // The annotation tells `this.run()` is a promise under Flow as under TypeScript.
    assert.deepEqual(rules('flow.js'), ['async-hazards/no-blocking-in-async', 'async-hazards/no-orphaned-promise']);
    assert.deepEqual(rules('block.js'), rules('flow.js'));
    assert.deepEqual(rules('plain.js'), ['fatal']);
    assert.deepEqual(rules('noflow.js'), ['fatal']);
  });

  it('a rule that crashes exits 2 with one summary line per rule, and the other rules still report', () => {
    const dir = crashingProject();
    const result = json(['src'], dir, { ASYNC_HAZARDS_TEST_PLUGIN: path.join(dir, 'crashing-plugin.cjs') });
    assert.equal(result.status, 2, result.stderr);
    assert.equal(byRule(result.reports).get('async-hazards/no-blocking-in-async'), 1);
    const summaries = result.stderr.split('\n').filter((line) => / crashed on \d+ files? \(/.test(line));
    assert.deepEqual(summaries, [
      'async-hazards: async-hazards/no-unbounded-fan-out crashed on 4 files (src/a.ts, src/b.ts, src/c.ts and 1 more); its findings there are missing. This is a bug in async-hazards; please report it at https://github.com/async-hazards/async-hazards/issues',
    ]);
    assert.match(result.stderr, /rule bug on explode/, 'the first crash is shown with its stack');
  });
});

describe('--concurrency', () => {
  /** samples/ plus a file that is skipped (binary) and one that does not parse: every kind of report. */
  const mixed = (): string => scratch({ 'src/blob.ts': 'export const a = 1;\u0000\u0000\n', 'src/broken.ts': 'export async function (\n' }, true);

  it('worker threads give byte-identical reports, notices and exit code in every format', () => {
    const dir = mixed();
    for (const format of ['json', 'sarif', 'stylish', 'github']) {
      const off = run(['src/', '--format', format, '--concurrency', 'off'], dir);
      const threads = run(['src/', '--format', format, '--concurrency', '2'], dir);
      assert.equal(off.status, 1, off.stderr);
      assert.equal(threads.status, off.status, format);
      assert.equal(threads.stdout, off.stdout, format);
      assert.equal(threads.stderr, off.stderr, format);
    }
    const dry = (concurrency: string): string => run(['src/', '--format', 'json', '--fix-dry-run', '--concurrency', concurrency], dir).stdout;
    assert.match(dry('off'), /"output":/);
    assert.equal(dry('2'), dry('off'), '--fix-dry-run');
    const off = json(['src/', '--concurrency', 'off'], dir);
    assert.ok(off.reports.length > 8 && byRule(off.reports).size >= 5, 'a fixture with many files and findings');
    assert.match(off.stderr, /^async-hazards: warning: skipped src\/blob\.ts: the file looks binary$/m);
  });

  it('lints on more than one thread, and on the main thread only with off', () => {
    // A test plugin whose one rule reports which thread linted the file.
    const reporting = `const { threadId } = require('node:worker_threads');
const rule = { meta: { type: 'problem', schema: [], messages: { on: 'thread {{id}}' } }, create: (context) => ({ Program(node) { context.report({ node, messageId: 'on', data: { id: String(threadId) } }); } }) };
module.exports = { meta: { name: 'eslint-plugin-async-hazards' }, rules: { 'no-orphaned-promise': rule } };
`;
    const files: Record<string, string> = { 'thread-plugin.cjs': reporting };
    for (let i = 0; i < 12; i++) files[`src/f${String(i).padStart(2, '0')}.ts`] = `export const n${i} = ${i};\n`;
    const dir = scratch(files);
    const env = { ASYNC_HAZARDS_TEST_PLUGIN: path.join(dir, 'thread-plugin.cjs') };
    const threads = (concurrency: string): Set<string> => new Set(json(['src', '--concurrency', concurrency], dir, env).reports.flatMap((r) => r.messages.map((m) => m.message)));
    assert.deepEqual(threads('off'), new Set(['thread 0']));
    const two = threads('2');
    assert.equal(two.size, 2, [...two].join());
    assert.ok(two.has('thread 0'), 'the main thread lints too');
  });

  it('type-aware runs on workers (files partitioned by tsconfig) report as on one thread', () => {
    const off = run(['samples/', '--type-aware', '--format', 'json', '--concurrency', 'off']);
    const threads = run(['samples/', '--type-aware', '--format', 'json', '--concurrency', '2']);
    assert.equal(off.status, 1, off.stderr);
    assert.equal(threads.status, off.status);
    assert.equal(threads.stdout, off.stdout);
    assert.equal(threads.stderr, off.stderr);
  });

  it('"no type information" is told once across workers', () => {
    const dir = scratch({ 'a.ts': HAZARD, 'b.ts': HAZARD, 'c.ts': HAZARD, 'd.ts': HAZARD });
    const off = json(['.', '--type-aware', '--concurrency', 'off'], dir);
    const threads = json(['.', '--type-aware', '--concurrency', '2'], dir);
    const warnings = threads.stderr.split('\n').filter((line) => line.includes('no type information'));
    assert.deepEqual(warnings, ['async-hazards: warning: no type information for a.ts (no tsconfig.json or jsconfig.json); linting it without types']);
    assert.equal(threads.stderr, off.stderr);
    assert.deepEqual(threads.reports, off.reports);
    assert.equal(byRule(threads.reports).get('async-hazards/no-blocking-in-async'), 4);
  });

  it('a rule crash is told once, with one summary, across workers', () => {
    const dir = crashingProject();
    const env = { ASYNC_HAZARDS_TEST_PLUGIN: path.join(dir, 'crashing-plugin.cjs') };
    const off = json(['src', '--concurrency', 'off'], dir, env);
    const threads = json(['src', '--concurrency', '2'], dir, env);
    assert.equal(threads.status, 2, threads.stderr);
    assert.equal(threads.stderr.split('rule bug on explode').length - 1, 1, threads.stderr);
    assert.equal(threads.stderr.split('\n').filter((line) => / crashed on \d+ files? \(/.test(line)).length, 1);
    // The same text, but for the stack frames' positions in the worker's bundle.
    const frames = (stderr: string): string => stderr.replace(/cli(-worker)?\.js:\d+:\d+/g, 'bundle');
    assert.equal(frames(threads.stderr), frames(off.stderr));
    assert.deepEqual(threads.reports, off.reports);
  });

  it('a broken config still stops the run with exit 2 and one line', () => {
    const dir = scratch({ 'eslint.config.mjs': "throw new Error('config exploded');\n", 'a.ts': HAZARD, 'b.ts': HAZARD, 'c.ts': HAZARD });
    const result = run(['.', '--concurrency', '2'], dir);
    assert.equal(result.status, 2);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, /^async-hazards: cannot load eslint\.config\.mjs.*config exploded/);
    assert.equal(result.stdout, '');
  });

  it('refuses a bad value', () => {
    for (const value of ['0', 'many', '-1']) {
      const result = run(['samples/', '--concurrency', value]);
      assert.equal(result.status, 2, value);
      assert.match(result.stderr, /^async-hazards: --concurrency needs auto, off or a number/);
    }
  });
});

describe('--shard', () => {
  it('shards 1/3, 2/3 and 3/3 together report exactly the full run, each file once', () => {
    const dir = scratch({ 'src/more/a.ts': HAZARD, 'src/more/b.ts': HAZARD, 'src/more/c.ts': HAZARD }, true);
    const full = json(['.'], dir);
    const shards = ['1/3', '2/3', '3/3'].map((shard) => json(['.', '--shard', shard], dir));
    const union = shards.flatMap((s) => s.reports).sort((a, b) => (a.filePath < b.filePath ? -1 : 1));
    assert.deepEqual(union, full.reports);
    assert.ok(shards.filter((s) => s.reports.length > 0).length >= 2, 'files are spread over the shards');
    assert.equal(new Set(union.map((r) => r.filePath)).size, union.length);
    for (const s of shards) assert.equal(s.status, s.reports.some((r) => r.errorCount > 0) ? 1 : 0);
    assert.deepEqual(json(['.', '--shard', '2/3'], dir).reports, shards[1]?.reports, 'the same shard twice is the same files');
  });

  it('refuses the flags that rewrite the whole suppressions file, with a one-line reason', () => {
    for (const flags of [['--suppress-all'], ['--suppress-rule', 'no-orphaned-promise'], ['--prune-suppressions']]) {
      const result = run(['samples/', '--shard', '1/2', ...flags]);
      assert.equal(result.status, 2, flags.join(' '));
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, new RegExp(`^async-hazards: ${flags[0]} cannot be combined with --shard: the suppressions file covers every file and a shard lints only some`));
    }
    for (const value of ['0/2', '3/2', '1', 'a/b']) assert.equal(run(['samples/', '--shard', value]).status, 2, value);
  });
});

describe('persisted files', () => {
  it('the cache and the suppressions file are complete JSON and no temp file is left', () => {
    const dir = scratch({}, true);
    const fresh = json(['src/', '--concurrency', 'off'], dir);
    assert.equal(run(['src/', '--cache', '--suppress-all', '--concurrency', '2'], dir).status, 0);
    const cache = JSON.parse(fs.readFileSync(path.join(dir, '.async-hazards-cache'), 'utf8')) as { files: Record<string, unknown> };
    assert.ok(Object.keys(cache.files).length > 5);
    const recorded = JSON.parse(fs.readFileSync(path.join(dir, 'async-hazards-suppressions.json'), 'utf8')) as Record<string, unknown>;
    assert.ok(recorded['src/worker.ts']);
    // Cached findings, taken on threads, are the findings.
    assert.deepEqual(json(['src/', '--cache', '--concurrency', '2', '--suppressions-location', 'none.json'], dir).reports, fresh.reports);
    // A second run rewrites both over the existing files.
    assert.equal(run(['src/', '--cache', '--prune-suppressions', '--concurrency', '2'], dir).status, 0);
    JSON.parse(fs.readFileSync(path.join(dir, 'async-hazards-suppressions.json'), 'utf8'));
    assert.deepEqual(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp')), []);
  });
});

describe('other entry points', () => {
  it('--version and --help', () => {
    assert.match(run(['--version']).stdout, /^async-hazards \d+\.\d+\.\d+/);
    const help = run(['--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--format/);
    assert.match(help.stdout, /Examples:/);
  });

  it('--stdio starts the language server', async () => {
    const child = spawn(BIN, ['--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
      child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      const reply = await new Promise<string>((resolve, reject) => {
        let data = '';
        const timer = setTimeout(() => reject(new Error(`no initialize reply: ${data}`)), 30_000);
        child.stdout.on('data', (chunk: Buffer) => {
          data += chunk.toString();
          if (data.includes('"capabilities"')) {
            clearTimeout(timer);
            resolve(data);
          }
        });
      });
      assert.match(reply, /"id":1/);
    } finally {
      child.kill();
    }
  });
});
