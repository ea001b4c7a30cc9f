// Each rule's findings in samples/ through the built server: code, docs link, range, severity,
// related locations, and every quick fix applied to the text (the finding must go, the text must parse).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { FIX_ALL_KIND } from '../../server/src/protocol';
import { LspHarness, samplesRoot } from './harness';

const SAMPLES: Array<{ file: string; rule: string }> = [
  { file: 'worker.ts', rule: 'release-in-finally' },
  { file: 'summarizer.ts', rule: 'no-sleep-holding-permit' },
  { file: 'templates.ts', rule: 'no-blocking-in-async' },
  { file: 'api.ts', rule: 'no-orphaned-promise' },
  { file: 'batch.ts', rule: 'no-unbounded-fan-out' },
];

describe('findings in samples/', () => {
  let harness: LspHarness;
  before(async () => {
    ({ harness } = await LspHarness.start({ folders: [samplesRoot], settings: { typeAware: 'off' } }));
  });
  after(() => harness.shutdown());

  for (const { file, rule } of SAMPLES) {
    it(`${rule} in ${file}: diagnostics and every quick fix`, async () => {
      const uri = await harness.open(path.join(samplesRoot, 'src', file));
      const original = harness.text(uri);
      const lineCount = original.split('\n').length;
      const found = (await harness.diagnostics(uri)).filter((d) => d.code === `async-hazards/${rule}`);
      assert.ok(found.length > 0, `${file} has ${rule} findings`);
      for (const d of found) {
        assert.equal(d.source, 'async-hazards');
        assert.equal(d.severity, 1);
        assert.equal(d.codeDescription?.href, `https://github.com/async-hazards/async-hazards/blob/main/eslint-plugin/docs/rules/${rule}.md`);
        assert.ok(d.range.start.line < lineCount && d.range.end.line < lineCount && d.range.start.line <= d.range.end.line);
        for (const related of d.relatedInformation ?? []) {
          assert.equal(related.location.uri, uri);
          assert.ok(related.location.range.start.line < lineCount && related.message.length > 0);
        }
      }
      assert.ok(found.some((d) => (d.relatedInformation ?? []).length > 0), 'evidence reaches relatedInformation');

      let applied = 0;
      for (const [index, finding] of found.entries()) {
        const actions = await harness.codeActions(uri, [finding]);
        const edits = actions.filter((a) => a.edit && !a.title.startsWith('Disable '));
        for (const action of edits) {
          await harness.replace(uri, original);
          const current = (await harness.diagnostics(uri)).filter((d) => d.code === `async-hazards/${rule}`)[index]!;
          const fresh = (await harness.codeActions(uri, [current])).find((a) => a.title === action.title)!;
          const text = await harness.applyWorkspaceEdit(fresh.edit);
          assert.notEqual(text, original, action.title);
          const after: Diagnostic[] = await harness.diagnostics(uri);
          assert.ok(!after.some((d) => !d.code), `${action.title}: the text still parses`);
          assert.ok(!after.some((d) => d.code === finding.code && d.range.start.line === finding.range.start.line && d.message === finding.message), `${action.title}: the finding is gone`);
          applied++;
        }
      }
      assert.ok(applied > 0, 'at least one quick fix with an edit');
      await harness.replace(uri, original);
      await harness.close(uri);
    });
  }

  it('release-in-finally in worker.ts: fix-all applies the autofix only', async () => {
    const uri = await harness.open(path.join(samplesRoot, 'src', 'worker.ts'));
    const before = (await harness.diagnostics(uri)).filter((d) => d.code === 'async-hazards/release-in-finally');
    const autofixable = before.filter((d) => (d.data as { fix?: unknown }).fix);
    assert.ok(autofixable.length > 0, 'worker.ts has an autofixable leak');
    const [fixAll] = await harness.codeActions(uri, [], [FIX_ALL_KIND]);
    assert.equal(fixAll?.kind, FIX_ALL_KIND);
    await harness.applyWorkspaceEdit(fixAll?.edit);
    const after = (await harness.diagnostics(uri)).filter((d) => d.code === 'async-hazards/release-in-finally');
    assert.equal(after.length, before.length - autofixable.length);
    await harness.close(uri);
  });
});
