// The quick, functional share of the server soak in `npm test`: a short seeded run with every hostile
// moment (2 MB file at the default size limit, binary file, close during lint, invalid settings,
// malformed requests and a malformed message). No memory threshold here; `npm run test:soak` has it.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatSoak, soak } from './soak';

it('the built server survives a short soak and ends with the diagnostics of a fresh server', async () => {
  const started = Date.now();
  const result = await soak({ edits: 120, seed: 7, warmUp: 60, sampleEvery: 30, lintBigFile: false });
  const report = `${formatSoak(result, (Date.now() - started) / 1000)}\nserver stderr:\n${result.stderr.slice(-2000)}`;
  assert.equal(result.edits, 120, report);
  assert.equal(result.serverAlive, true, report);
  assert.ok(result.errorResponses >= 1, `an unknown method is answered with an error\n${report}`);
  assert.ok(result.finalDocuments >= 5, report);
  assert.deepEqual(result.mismatches, [], report);
  assert.ok(result.rssBaseline > 0 && result.rssSamples.length > 0, report);
});
