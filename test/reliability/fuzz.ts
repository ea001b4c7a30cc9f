// Seeded fuzzing: mutates real files (the fixed corpus sample, the TypeScript corpora when present,
// the hazard-rich samples/src and the TypeScript syntax matrix) by truncating them, deleting or
// duplicating tokens, and inserting `async`, `await`, brackets and TypeScript's `declare`,
// `abstract`, `satisfies T`, `<T>`, `!` and `as T`, then lints each mutant with every rule. Parse errors are expected; a rule that throws is a crash.
// The same seed gives the same mutants, so a crash found here reproduces with its iteration number.
//   node --import tsx test/reliability/fuzz.ts [--iterations N] [--seed N]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { SweepStats } from './corpus';
import { emptyStats, fixedSample, listCorpus, lintOne, parseProblem, repoRoot } from './corpus';
import { MATRIX } from './matrix';
import { MANIFEST, corpusFiles, defaultCorporaDir, missingCorpus } from './sweep-ts';

/** mulberry32: a tiny 32-bit PRNG, plenty for picking offsets, and identical on every run. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKEN = /[A-Za-z_$][\w$]*|\d+|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`|=>|[{}()[\];,.<>=!+\-*/%&|?:]/g;
const INSERTS = ['async ', 'await ', '{', '}', '(', ')', 'async function () {', 'await (', '=> {', ';', 'return ', 'finally {'];
// TypeScript's own tokens: bodiless declarations, casts and assertions around callees, type arguments.
const TS_INSERTS = ['declare ', 'abstract ', ' satisfies T', '<T>', '!', ' as T'];

interface Token {
  start: number;
  end: number;
}

function tokens(text: string): Token[] {
  return [...text.matchAll(TOKEN)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

export type MutationKind = 'truncate' | 'deleteToken' | 'duplicateToken' | 'insert' | 'insertTs';
const KINDS: MutationKind[] = ['truncate', 'deleteToken', 'duplicateToken', 'insert', 'insertTs'];

/** One to three mutations of `text`, chosen by `random`. */
export function mutate(text: string, random: () => number): { text: string; kinds: MutationKind[] } {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const kinds: MutationKind[] = [];
  let out = text;
  // Mostly one mutation, so that a good share of mutants still parse and reach the rules.
  const count = random() < 0.6 ? 1 : 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) {
    const kind = pick(KINDS);
    kinds.push(kind);
    if (kind === 'truncate') {
      out = out.slice(0, Math.floor(random() * (out.length + 1)));
      continue;
    }
    const list = tokens(out);
    if (list.length === 0) continue;
    const token = pick(list);
    if (kind === 'deleteToken') out = out.slice(0, token.start) + out.slice(token.end);
    else if (kind === 'duplicateToken') out = out.slice(0, token.end) + ' ' + out.slice(token.start, token.end) + out.slice(token.end);
    else if (kind === 'insert') out = out.slice(0, token.start) + pick(INSERTS) + out.slice(token.start);
    else {
      // After a token makes `f!()`, `x as T`, `g<T>()`; before one, `<T>x` and `declare function`.
      const at = random() < 0.5 ? token.start : token.end;
      out = out.slice(0, at) + pick(TS_INSERTS) + out.slice(at);
    }
  }
  return { text: out, kinds };
}

export interface FuzzInput {
  file: string;
  text: string;
}

/**
 * The inputs: code written to trip the rules (samples/src, the code blocks of the rule docs linted
 * under a .ts name, the TypeScript syntax matrix) and a fixed sample of the corpus: node_modules,
 * plus the TypeScript corpora of ts-corpora.json when they are on disk.
 */
export function fuzzInputs(sampleSize: number, tsCorpusDir = defaultCorporaDir()): { hazardous: FuzzInput[]; corpus: FuzzInput[] } {
  const read = (file: string): FuzzInput => ({ file, text: fs.readFileSync(file, 'utf8') });
  const samples = path.join(repoRoot, 'samples', 'src');
  const hazardous = fs
    .readdirSync(samples, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.[cm]?[jt]sx?$/.test(f))
    .sort()
    .map((f) => read(path.join(samples, f)));
  const docs = path.join(repoRoot, 'eslint-plugin', 'docs', 'rules');
  for (const page of fs.readdirSync(docs).filter((f) => f.endsWith('.md')).sort()) {
    const markdown = fs.readFileSync(path.join(docs, page), 'utf8');
    let n = 0;
    for (const block of markdown.matchAll(/```(?:ts|js|typescript|javascript)\n([\s\S]*?)```/g)) {
      hazardous.push({ file: path.join(samples, `${page.replace('.md', '')}-${n++}.ts`), text: block[1]! });
    }
  }
  const matrixDir = path.join(repoRoot, 'test', 'reliability', 'matrix');
  for (const entry of MATRIX) hazardous.push({ file: path.join(matrixDir, entry.file), text: entry.code });
  const corpus = fixedSample(listCorpus(), sampleSize, 30_000);
  const tsFiles = MANIFEST.flatMap((entry) => {
    const root = path.join(tsCorpusDir, entry.name);
    return missingCorpus(root, entry) === undefined ? corpusFiles(root, entry) : [];
  });
  if (tsFiles.length > 0) corpus.push(...fixedSample(tsFiles, sampleSize, 30_000));
  return { hazardous, corpus: corpus.map(read) };
}

export interface FuzzResult {
  iterations: number;
  parsed: number;
  stats: SweepStats;
  /** Crashes with the iteration that produced them. */
  failures: Array<{ iteration: number; file: string; kinds: MutationKind[]; message: string }>;
  /**
   * Mutants on which `parseProblem` (the parser alone, used to check fixes) and ESLint's own lint
   * disagree about whether the text parses: the fix check is only as good as this agreement.
   */
  verdictMismatches: Array<{ iteration: number; file: string; eslint: boolean; parser: boolean }>;
}

/** Runs `iterations` mutants from one seeded random stream: every other one of hazardous code. */
export function fuzz(inputs: { hazardous: FuzzInput[]; corpus: FuzzInput[] }, iterations: number, seed: number): FuzzResult {
  const random = createRandom(seed);
  const stats = emptyStats();
  const result: FuzzResult = { iterations: 0, parsed: 0, stats, failures: [], verdictMismatches: [] };
  for (let i = 0; i < iterations; i++) {
    const list = i % 2 === 0 || inputs.corpus.length === 0 ? inputs.hazardous : inputs.corpus;
    const { file, text } = list[Math.floor(i / 2) % list.length]!;
    const mutant = mutate(text, random);
    const crashesBefore = stats.crashes.length;
    const parseErrorsBefore = stats.parseErrors;
    lintOne(stats, file, mutant.text);
    result.iterations++;
    if (stats.parseErrors === parseErrorsBefore && stats.crashes.length === crashesBefore) result.parsed++;
    if (stats.crashes.length === crashesBefore) {
      const eslint = stats.parseErrors === parseErrorsBefore;
      const parser = parseProblem(file, mutant.text) === undefined;
      if (eslint !== parser) result.verdictMismatches.push({ iteration: i, file, eslint, parser });
    }
    for (const crash of stats.crashes.slice(crashesBefore)) result.failures.push({ iteration: i, file, kinds: mutant.kinds, message: crash.message });
  }
  return result;
}

export function formatFuzz(result: FuzzResult, seed: number, seconds: number): string {
  const findings = Object.entries(result.stats.findings).map(([rule, n]) => `${rule.replace('async-hazards/', '')} ${n}`);
  return [
    `fuzz: ${result.iterations} mutants (seed ${seed}) in ${seconds.toFixed(1)} s; ${result.parsed} still parsed, findings: ${findings.join(', ') || 'none'}`,
    `fuzz: fixes and suggestions re-parsed: ${Object.values(result.stats.fixesApplied).reduce((a, b) => a + b, 0)}, failures: ${result.stats.fixFailures.length}`,
    ...result.stats.fixFailures.slice(0, 10).map((f) => `  ${path.relative(repoRoot, f.file)} ${f.ruleId}/${f.kind}: ${f.message}`),
    `fuzz: parse verdicts where the parser alone and ESLint disagree: ${result.verdictMismatches.length}`,
    ...result.verdictMismatches.slice(0, 10).map((m) => `  #${m.iteration} ${path.relative(repoRoot, m.file)}: ESLint ${m.eslint ? 'parses' : 'fails'}, parser ${m.parser ? 'parses' : 'fails'}`),
    `fuzz: crashes: ${result.failures.length}`,
    ...result.failures.slice(0, 10).map((f) => `  #${f.iteration} ${path.relative(repoRoot, f.file)} [${f.kinds.join(',')}]: ${f.message.split('\n').slice(0, 6).join('\n    ')}`),
  ].join('\n');
}

if (require.main === module) {
  const { values } = parseArgs({ options: { iterations: { type: 'string', default: '3000' }, seed: { type: 'string', default: '20261130' }, sample: { type: 'string', default: '300' } } });
  const seed = Number(values.seed);
  const started = Date.now();
  const result = fuzz(fuzzInputs(Number(values.sample)), Number(values.iterations), seed);
  process.stdout.write(`${formatFuzz(result, seed, (Date.now() - started) / 1000)}\n`);
  process.exitCode = result.failures.length > 0 || result.verdictMismatches.length > 0 || result.stats.fixFailures.length > 0 ? 1 : 0;
}
