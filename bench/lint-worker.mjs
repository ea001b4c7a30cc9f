// One benchmark row in one process: lints every corpus file with ESLint's Linter under one
// configuration and prints one JSON line (CPU, peak RSS, findings, and with --stats ESLint's
// per-rule times plus the time spent in the shared analysis). Started by bench/run.mjs; the
// process exists only for this row so its peak RSS is the row's own.
// node bench/lint-worker.mjs <row> [--stats] [--dump file]
// BENCH_PLUGIN=<path to a built plugin's index.js> lints with that build instead (an earlier
// commit's, to compare before and after in one run). It must resolve the packages it loads to the
// ones this checkout's ESLint uses: copy the earlier build's eslint-plugin/dist into this
// checkout (e.g. eslint-plugin/dist-before/) rather than pointing into another checkout, whose
// node_modules would give it a second TypeScript and typescript-eslint to load and warm up.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Linter } from 'eslint';
import { CORPUS_ROOT, corpusFiles, sampleFiles } from './corpus.mjs';
import { instrumentAnalysis, wrapRules } from './instrument.mjs';

const startCpu = process.cpuUsage();
const row = process.argv[2];
const withStats = process.argv.includes('--stats');
const dumpAt = process.argv.indexOf('--dump');
const dumpFile = dumpAt > 0 ? process.argv[dumpAt + 1] : null;

const ROOT = CORPUS_ROOT;

/**
 * Refuses a BENCH_PLUGIN build that would load its own copy of the parser stack: measured on the
 * app workspace, the same build from another checkout's folder costs 1.19× the CPU (+0.5 s per
 * row, +40 MB RSS), which a before/after comparison would read as the change's effect.
 */
function checkSharedDependencies(entry) {
  const ours = createRequire(import.meta.url);
  const theirs = createRequire(path.resolve(entry));
  for (const name of ['typescript', '@typescript-eslint/typescript-estree', '@typescript-eslint/scope-manager', 'eslint']) {
    const [mine, its] = [ours.resolve(name), theirs.resolve(name)];
    if (mine !== its) {
      throw new Error(`BENCH_PLUGIN=${entry} loads ${name} from ${its}, not ${mine}: it would pay for a second copy. Copy its dist folder into this checkout as eslint-plugin/dist-before/ (git ignores it) and point BENCH_PLUGIN there.`);
    }
  }
}
const FILES = ['**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}'];

async function configFor(name) {
  const tsParser = await import('@typescript-eslint/parser');
  const base = {
    files: FILES,
    languageOptions: { parser: tsParser },
    // The corpus's own eslint comments are for its own configs.
    linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
  };
  const typed = { ...base, languageOptions: { ...base.languageOptions, parserOptions: { projectService: true, tsconfigRootDir: ROOT } } };
  const ours = async (cfg) => {
    if (process.env.BENCH_PLUGIN) checkSharedDependencies(process.env.BENCH_PLUGIN);
    let plugin = (await import(process.env.BENCH_PLUGIN ? pathToFileURL(process.env.BENCH_PLUGIN).href : 'eslint-plugin-async-hazards')).default;
    if (withStats) plugin = wrapRules(plugin);
    const rules = Object.fromEntries(Object.keys(plugin.rules).map((id) => [`async-hazards/${id}`, 'error']));
    return [{ ...cfg, plugins: { 'async-hazards': plugin }, rules }];
  };
  switch (name) {
    case 'a':
      return [{ ...base, rules: {} }];
    case 'a1':
      return [{ ...base, rules: { 'no-debugger': 'error' } }];
    case 'b':
      return ours(base);
    case 'c':
      return ours(typed);
    case 'd': {
      const tsPlugin = (await import('@typescript-eslint/eslint-plugin')).default;
      return [
        {
          ...typed,
          plugins: { '@typescript-eslint': tsPlugin },
          rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
        },
      ];
    }
    case 'e': {
      // n/no-sync throws under @typescript-eslint/parser without a program ("requires type
      // information") but runs name-based when the parser services carry no node maps, as under
      // ESLint's default parser. The same parser with its node maps hidden keeps (a)'s floor.
      const n = (await import('eslint-plugin-n')).default;
      const parser = {
        meta: { name: 'typescript-eslint-parser-without-services' },
        parseForESLint(code, options) {
          const result = tsParser.parseForESLint(code, options);
          return { ...result, services: { ...result.services, esTreeNodeToTSNodeMap: null, tsNodeToESTreeNodeMap: null } };
        },
      };
      return [{ ...base, languageOptions: { parser }, plugins: { n }, rules: { 'n/no-sync': 'error' } }];
    }
    default:
      throw new Error(`unknown row ${name}`);
  }
}

if (withStats) await instrumentAnalysis();
const config = await configFor(row);
const files = sampleFiles(await corpusFiles());
const linter = new Linter({ configType: 'flat', cwd: ROOT });

const findings = {};
let fatal = 0;
const fatalSamples = [];
const dump = [];
const ruleMs = {};
let parseMs = 0;
let totalMs = 0;
const lintStart = performance.now();
for (const { file } of files) {
  const text = await readFile(file, 'utf8');
  const messages = withStats
    ? linter.verifyAndFix(text, config, { filename: file, stats: true, fix: false }).messages
    : linter.verify(text, config, { filename: file });
  if (withStats) {
    const times = linter.getTimes();
    for (const pass of times.passes ?? []) {
      parseMs += pass.parse?.total ?? 0;
      totalMs += pass.total ?? 0;
      for (const [id, t] of Object.entries(pass.rules ?? {})) ruleMs[id] = (ruleMs[id] ?? 0) + t.total;
    }
  }
  for (const m of messages) {
    if (m.fatal) {
      fatal += 1;
      if (fatalSamples.length < 3) fatalSamples.push(`${path.relative(ROOT, file)}: ${m.message}`);
      continue;
    }
    // ESLint's own notes (here: the corpus's directives that noInlineConfig turns off).
    if (m.ruleId === null) continue;
    findings[m.ruleId] = (findings[m.ruleId] ?? 0) + 1;
    if (dumpFile) dump.push(`${path.relative(ROOT, file)}:${m.line}:${m.column} ${m.ruleId}`);
  }
}
const lintMs = performance.now() - lintStart;
if (dumpFile) await writeFile(dumpFile, `${dump.sort().join('\n')}\n`);

const cpu = process.cpuUsage(startCpu);
const result = {
  row,
  files: files.length,
  cpuMs: (cpu.user + cpu.system) / 1000,
  lintMs,
  maxRssKb: process.resourceUsage().maxRSS,
  findings,
  fatal,
  fatalSamples,
};
if (withStats) {
  const { analysisTimes } = await import('./instrument.mjs');
  Object.assign(result, { parseMs, totalMs, ruleMs, analysis: analysisTimes() });
}
process.stdout.write(`${JSON.stringify(result)}\n`);
