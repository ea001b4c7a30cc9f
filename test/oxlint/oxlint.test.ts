// The plugin as oxlint users load it: `jsPlugins: ["eslint-plugin-async-hazards"]` in
// samples/.oxlintrc.json, no shim. oxlint (the binary shipped in its npm package) must report
// exactly what ESLint reports through our CLI: same places, same rules, same words.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLES = path.join(ROOT, 'samples');

interface OxlintReport {
  diagnostics: Array<{ message: string; code: string; severity: string; filename: string; labels: Array<{ span: { line: number; column: number } }> }>;
}
interface EslintReport { filePath: string; messages: Array<{ ruleId: string | null; line: number; column: number; message: string }> }

function oxlintFindings(): string[] {
  const result = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'oxlint'), ['--format', 'json', 'src'], { cwd: SAMPLES, encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 1, `oxlint exits 1 on findings: ${result.stderr}`);
  const report = JSON.parse(result.stdout) as OxlintReport;
  return report.diagnostics.map((d) => {
    const rule = /^async-hazards\((.+)\)$/.exec(d.code);
    assert.ok(rule, `not one of our rules (a plugin error?): ${d.code} ${d.message}`);
    const { line, column } = d.labels[0]!.span;
    return `${d.filename}:${line}:${column} async-hazards/${rule[1]} ${d.message}`;
  }).sort();
}

function eslintFindings(): string[] {
  const result = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'async-hazards'), ['src', '--format', 'json'], { cwd: SAMPLES, encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 1, result.stderr);
  return (JSON.parse(result.stdout) as EslintReport[])
    .flatMap((r) => r.messages.map((m) => `${path.relative(SAMPLES, r.filePath)}:${m.line}:${m.column} ${m.ruleId} ${m.message}`))
    .sort();
}

describe('oxlint jsPlugins', () => {
  it('runs the published plugin unchanged and reports what ESLint reports on samples/', () => {
    const ox = oxlintFindings();
    const eslint = eslintFindings();
    assert.ok(eslint.length >= 15, `expected the samples' findings, got ${eslint.length}`);
    for (const rule of ['release-in-finally', 'no-sleep-holding-permit', 'no-blocking-in-async', 'no-orphaned-promise', 'no-unbounded-fan-out']) {
      assert.ok(ox.some((f) => f.includes(` async-hazards/${rule} `)), `oxlint found nothing for ${rule}`);
    }
    assert.deepEqual(ox, eslint);
  });

  it('passes rule options and settings["async-hazards"] from .oxlintrc.json to the rules', () => {
    // `allowVoid: false` makes `void send()` a finding; the `sleeps` setting makes `pause` a sleep.
    const dir = path.join(ROOT, 'test', 'fixtures', 'oxlint');
    const result = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'oxlint'), ['--format', 'unix', 'options.ts'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    const lines = result.stdout.split('\n').filter((line) => line.startsWith('options.ts:'));
    assert.deepEqual(lines.map((line) => line.replace(/: .*\[Error\/(.*)\]$/, ' $1')), [
      'options.ts:6:8 async-hazards(no-orphaned-promise)',
      'options.ts:7:44 async-hazards(no-sleep-holding-permit)',
    ], result.stdout);
  });
});
