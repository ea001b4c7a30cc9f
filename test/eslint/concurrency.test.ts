// The plugin under ESLint's own multithreaded linting (`concurrency`, ESLint ≥ 9.34): each thread
// loads the config and the plugin itself, so the project layer's caches (parsed modules,
// resolutions) are per thread. Findings must not depend on which thread linted which file.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '..', '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'async-hazards-eslint-threads-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

// samples/ is a multi-module workspace (scheduler.ts → jobs.ts, worker.ts → summarizer.ts); more
// modules importing them give every thread several files that read the same neighbours.
fs.cpSync(path.join(ROOT, 'samples'), work, { recursive: true });
fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'), 'dir');
for (const name of ['a', 'b', 'c', 'd']) {
  fs.writeFileSync(
    path.join(work, 'src', `more-${name}.ts`),
    `import { enqueueSummary, staleTicketIds } from './jobs.js';\n\nexport async function requeue${name}(): Promise<void> {\n  for (const id of await staleTicketIds(10)) enqueueSummary(id);\n}\n`,
  );
}
fs.writeFileSync(
  path.join(work, 'eslint.typed.config.mjs'),
  "import asyncHazards from 'eslint-plugin-async-hazards';\nexport default [asyncHazards.configs['recommended-type-checked']];\n",
);

type Finding = string;

async function findings(concurrency: 'off' | number, configFile?: string): Promise<Finding[]> {
  const eslint = new ESLint({ cwd: work, concurrency, ...(configFile ? { overrideConfigFile: configFile } : {}) });
  const results = await eslint.lintFiles(['src']);
  return results.flatMap((r) =>
    r.messages.map((m) => `${path.relative(work, r.filePath)}:${m.line}:${m.column} ${m.ruleId ?? 'fatal'} ${m.message}`),
  );
}

describe('under ESLint --concurrency', { timeout: 300_000 }, () => {
  it('two threads find what one thread finds (no types)', async () => {
    const one = await findings('off');
    const two = await findings(2);
    assert.ok(one.length > 10, one.join('\n'));
    assert.ok(!one.some((f) => f.includes(' fatal ')), 'the fixture parses');
    assert.ok(new Set(one.map((f) => f.split(':')[0])).size >= 5, 'findings in many modules');
    assert.deepEqual(two, one);
  });

  it('two threads find what one thread finds (types: recommended-type-checked)', async () => {
    const one = await findings('off', 'eslint.typed.config.mjs');
    const two = await findings(2, 'eslint.typed.config.mjs');
    // The cross-module orphaned promises (enqueueSummary from jobs.ts) are only visible with types.
    assert.ok(one.filter((f) => f.startsWith(`src${path.sep}more-`) && f.includes('no-orphaned-promise')).length >= 4, one.join('\n'));
    assert.deepEqual(two, one);
  });
});
