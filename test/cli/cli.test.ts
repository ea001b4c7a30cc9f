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
  it('finds the cross-file orphaned promise that the syntactic run does not', () => {
    const plain = json(['samples/src/scheduler.ts']);
    const typed = json(['samples/src/scheduler.ts', '--type-aware']);
    const count = (reports: JsonReport[]): number => byRule(reports).get('async-hazards/no-orphaned-promise') ?? 0;
    assert.equal(typed.status, 1);
    assert.ok(count(typed.reports) > count(plain.reports), `${count(typed.reports)} vs ${count(plain.reports)}`);
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

  it('a rule that crashes exits 2 with one summary line per rule, and the other rules still report', () => {
    // The real plugin with one rule that throws on a marked identifier, through the CLI's test hook.
    const crashing = `const plugin = require(${JSON.stringify(path.join(ROOT, 'eslint-plugin', 'dist', 'index.js'))});
const broken = {
  ...plugin.rules['no-unbounded-fan-out'],
  create: () => ({ Identifier(node) { if (node.name === 'explode') throw new Error('rule bug on explode'); } }),
};
module.exports = { ...plugin, rules: { ...plugin.rules, 'no-unbounded-fan-out': broken } };
`;
    const exploding = 'export const explode = 1;\n';
    const dir = scratch({ 'crashing-plugin.cjs': crashing, 'src/a.ts': exploding, 'src/b.ts': exploding, 'src/c.ts': exploding, 'src/d.ts': exploding, 'src/hazard.ts': HAZARD });
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
