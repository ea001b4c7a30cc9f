// The quick share of the reliability checks that runs in `npm test`: a fixed sample of the real-code
// sweep (with every fix and suggestion re-parsed) and a short seeded fuzz run. The full sweep and
// the long fuzz run are `npm run test:corpus`.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { emptyStats, fixedSample, formatStats, hasTsconfig, lintOne, listCorpus, packageOf, packageProgram, parseProblem, parseProblemViaLinter, sweepFile } from './corpus';
import { createRandom, formatFuzz, fuzz, fuzzInputs, mutate } from './fuzz';
import { MANIFEST, missingCorpus } from './sweep-ts';

describe('real-code sweep, fixed sample', () => {
  it('lints a few hundred node_modules files with every rule without a crash, and every fix re-parses', () => {
    const corpus = listCorpus();
    assert.ok(corpus.length > 1000, `expected a corpus, found ${corpus.length} files`);
    const sample = fixedSample(corpus, 150, 30_000);
    const stats = emptyStats();
    const started = Date.now();
    for (const file of sample) sweepFile(stats, file);
    // One package that ships a tsconfig, linted with type information too.
    const typedPackage = [...new Set(corpus.map(packageOf))].find(hasTsconfig);
    if (typedPackage) {
      const files = corpus.filter((file) => packageOf(file) === typedPackage);
      const program = packageProgram(typedPackage, files);
      for (const file of files) sweepFile(stats, file, program);
      assert.ok(stats.typedFiles > 0, `no file of ${typedPackage} was linted with types`);
    }
    const report = formatStats(stats, (Date.now() - started) / 1000);
    assert.equal(stats.files, sample.length + stats.typedFiles, report);
    assert.deepEqual(stats.crashes, [], report);
    assert.deepEqual(stats.fixFailures, [], report);
  });

  it('counts findings and applies their fixes (the sweep is not blind)', () => {
    const stats = emptyStats();
    const file = path.join(path.resolve(__dirname, '..', '..'), 'node_modules', 'example', 'index.ts');
    const text = [
      "import { Mutex } from 'async-mutex';",
      'const mutex = new Mutex();',
      'export async function run(work: () => Promise<void>) {',
      '  const release = await mutex.acquire();',
      '  await work();',
      '  release();',
      '}',
    ].join('\n');
    lintOne(stats, file, text);
    assert.equal(stats.findings['async-hazards/release-in-finally'], 1);
    assert.ok((stats.fixesApplied['release-in-finally/fix'] ?? 0) >= 1, JSON.stringify(stats.fixesApplied));
    assert.deepEqual(stats.fixFailures, []);
    assert.equal(parseProblem(file, text), undefined);
    assert.match(parseProblem(file, 'const = ;') ?? '', /^1:7 Variable declaration expected/);
    assert.match(parseProblemViaLinter(file, 'const = ;') ?? '', /^1:6 Parsing error: Variable declaration expected/);
    assert.equal(parseProblemViaLinter(file, text), undefined);
    // A top-level `await (` is an await in a module (what ESLint parses), a call in a script.
    const js = file.replace(/\.ts$/, '.js');
    assert.match(parseProblem(js, 'await (') ?? '', /Expression expected/);
    assert.match(parseProblemViaLinter(js, 'await (') ?? '', /Expression expected/);
  });

  it('a file no configuration matches fails loudly instead of counting as clean', () => {
    assert.throws(() => lintOne(emptyStats(), '/tmp/not-linted.txt', 'x'), /No matching configuration/);
  });
});

describe('TypeScript corpora manifest', () => {
  it('pins each corpus to a repository and commit, and a missing copy says what to fetch and where', () => {
    assert.ok(MANIFEST.length >= 3);
    for (const entry of MANIFEST) {
      assert.match(entry.repository, /^[\w.-]+\/[\w.-]+$/);
      assert.match(entry.commit, /^[0-9a-f]{40}$/);
      assert.ok(entry.paths.length > 0);
    }
    const entry = MANIFEST[0]!;
    const message = missingCorpus('/nonexistent/corpora/x', entry) ?? '';
    assert.ok(message.includes(entry.repository) && message.includes(entry.commit) && message.includes('/nonexistent/corpora/x'), message);
    assert.equal(missingCorpus(path.resolve(__dirname, '..', '..'), { ...entry, paths: ['test'] }), undefined);
  });
});

describe('fuzzing, short seeded run', () => {
  it('the PRNG and the mutations are deterministic for a seed', () => {
    const a = createRandom(7);
    const b = createRandom(7);
    const seqA = Array.from({ length: 5 }, a);
    assert.deepEqual(seqA, Array.from({ length: 5 }, b));
    assert.ok(seqA.every((x) => x >= 0 && x < 1));
    const text = 'async function f() { await g(); }';
    assert.deepEqual(mutate(text, createRandom(3)), mutate(text, createRandom(3)));
  });

  it('no rule throws on 300 mutants of hazardous code and real files', () => {
    const seed = 12;
    const started = Date.now();
    const result = fuzz(fuzzInputs(60), 300, seed);
    const report = formatFuzz(result, seed, (Date.now() - started) / 1000);
    assert.equal(result.iterations, 300);
    assert.ok(result.parsed > 0, report);
    assert.deepEqual(result.failures, [], report);
    assert.deepEqual(result.stats.fixFailures, [], report);
    assert.deepEqual(result.verdictMismatches, [], report);
  });
});
