// `npm run bench`: what the five rules cost on real code, next to ESLint's parse floor and the
// tools users would pick instead. Every configuration runs in its own child process (peak RSS is
// per process); rounds alternate the configurations, rotating their order, so load on the machine
// hits them alike; each number is the median over the rounds. Prints one table and the budget
// lines. Environment: BENCH_RUNS (rounds, default 5), BENCH_SAMPLE (lint every Nth corpus file,
// default 1 = all), BENCH_ROWS (comma-separated subset, e.g. a,a1,b).
import { execFile } from 'node:child_process';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CORPUS_ROOT, corpusFiles, describeCorpus, ensureCorpus, sampleFiles } from './corpus.mjs';

const run = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROOT = CORPUS_ROOT;

const ROWS = {
  a: 'ESLint + @typescript-eslint/parser, no rules',
  a1: '(a) + core no-debugger',
  b: 'async-hazards, 5 rules, no types',
  c: 'async-hazards, 5 rules, types (projectService)',
  d: 'typescript-eslint no-floating-promises + no-misused-promises, types',
  e: 'eslint-plugin-n no-sync',
  f: 'async-hazards as oxlint jsPlugins, no types',
};
/** Not a row of the table: (b) again with ESLint's `stats` and the analysis timers, for the per-rule split. */
const STATS = 'b-stats';
// (a) and (a1) always run: every ratio is taken against them.
const wanted = new Set(['a', 'a1', ...(process.env.BENCH_ROWS ?? Object.keys(ROWS).join(',')).split(',')]);
const selected = Object.keys(ROWS).filter((r) => wanted.has(r));

const median = (xs) => {
  const sorted = xs.filter((x) => Number.isFinite(x)).sort((p, q) => p - q);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function hasTimeCommand() {
  return access('/usr/bin/time').then(
    () => true,
    () => false,
  );
}

async function eslintRow(row, { stats = false, dump = null } = {}) {
  const args = [path.join(HERE, 'lint-worker.mjs'), row];
  if (stats) args.push('--stats');
  if (dump) args.push('--dump', dump);
  const start = performance.now();
  const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 26, env: process.env });
  const wallMs = performance.now() - start;
  const lastLine = stdout.trim().split('\n').at(-1);
  return { ...JSON.parse(lastLine), wallMs };
}

/** Row (f): oxlint's own binary over the same files; CPU and peak RSS from /usr/bin/time when there is one. */
async function oxlintRow(ctx, { dump = null } = {}) {
  const bin = path.join(HERE, '..', 'node_modules', '.bin', 'oxlint');
  const rules = Object.fromEntries(ctx.ruleIds.map((id) => [id, 'error']));
  const config = {
    plugins: [],
    categories: { correctness: 'off' },
    // The built plugin itself, as oxlint users load it: no shim.
    jsPlugins: [fileURLToPath(import.meta.resolve('eslint-plugin-async-hazards'))],
    rules,
  };
  const configFile = path.join(ctx.tmp, 'oxlintrc.json');
  await writeFile(configFile, JSON.stringify(config));
  const timeFile = path.join(ctx.tmp, 'time.txt');
  const oxArgs = [bin, '-c', configFile, '--format', 'unix', '--max-warnings', '1000000000', ...ctx.files];
  const [cmd, args] = ctx.timeCommand ? ['/usr/bin/time', ['-o', timeFile, '-f', '%U %S %M', ...oxArgs]] : [oxArgs[0], oxArgs.slice(1)];
  const start = performance.now();
  const { stdout } = await run(cmd, args, { maxBuffer: 1 << 28, cwd: ROOT }).catch((error) => {
    // oxlint exits 1 when it reports anything; its output is still the result.
    if (typeof error.stdout === 'string' && error.code === 1) return error;
    throw error;
  });
  const wallMs = performance.now() - start;
  const findings = {};
  const found = [];
  let fatal = 0;
  const fatalSamples = [];
  for (const line of stdout.split('\n')) {
    const m = /^(.*?):(\d+):(\d+): .*\[(?:Error|Warning)\/([^\]]+)\]$/.exec(line);
    if (!m) continue;
    const rule = /^async-hazards\((.+)\)$/.exec(m[4]);
    if (!rule) {
      fatal += 1;
      if (fatalSamples.length < 3) fatalSamples.push(line.slice(0, 200));
      continue;
    }
    const id = `async-hazards/${rule[1]}`;
    findings[id] = (findings[id] ?? 0) + 1;
    found.push(`${path.relative(ROOT, path.resolve(ROOT, m[1]))}:${m[2]}:${m[3]} ${id}`);
  }
  // Messages without a rule (a crashing JS plugin, a parse error) have no `[Error/…]` tail.
  for (const line of stdout.split('\n')) {
    if (/Error running JS plugin|Failed to parse/.test(line)) {
      fatal += 1;
      if (fatalSamples.length < 3) fatalSamples.push(line.slice(0, 200));
    }
  }
  if (dump) await writeFile(dump, `${found.sort().join('\n')}\n`);
  let cpuMs = NaN;
  let maxRssKb = NaN;
  if (ctx.timeCommand) {
    const [user, system, rss] = (await readFile(timeFile, 'utf8')).trim().split('\n').at(-1).split(' ').map(Number);
    cpuMs = (user + system) * 1000;
    maxRssKb = rss;
  }
  return { row: 'f', files: ctx.files.length, cpuMs, wallMs, maxRssKb, findings, fatal, fatalSamples };
}

function fmt(n, digits = 1) {
  return Number.isFinite(n) ? n.toFixed(digits) : '—';
}

async function main() {
  await ensureCorpus();
  const all = await corpusFiles();
  const files = sampleFiles(all);
  const sample = Number(process.env.BENCH_SAMPLE ?? 1);
  console.log(`corpus (bench/.corpus, ${sample > 1 ? `every ${sample}th file: ` : ''}${files.length} of ${all.length} files):`);
  console.log(describeCorpus(files));
  const lines = files.reduce((n, f) => n + f.lines, 0);

  const plugin = (await import('eslint-plugin-async-hazards')).default;
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'async-hazards-bench-'));
  const ctx = {
    tmp,
    files: files.map((f) => f.file),
    ruleIds: Object.keys(plugin.rules).map((id) => `async-hazards/${id}`),
    timeCommand: await hasTimeCommand(),
  };

  const order = [...selected, STATS];
  const results = Object.fromEntries(order.map((r) => [r, []]));
  const failures = {};
  const dumps = { b: path.join(tmp, 'b.txt'), f: path.join(tmp, 'f.txt') };
  const started = performance.now();
  for (let round = 0; round < RUNS; round++) {
    const rotated = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
    for (const row of rotated) {
      if (failures[row]) continue;
      const dump = round === 0 && dumps[row] ? dumps[row] : null;
      try {
        const result =
          row === 'f' ? await oxlintRow(ctx, { dump }) : await eslintRow(row === STATS ? 'b' : row, { stats: row === STATS || row === 'a', dump });
        results[row].push(result);
      } catch (error) {
        failures[row] = String(error.stderr || error.message).trim().split('\n').slice(0, 3).join(' / ');
      }
      process.stderr.write(`round ${round + 1}/${RUNS} ${row} done (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
    }
  }

  const med = (row, pick) => median(results[row].map(pick));
  const cpu = (row) => med(row, (r) => r.cpuMs);
  const rss = (row) => med(row, (r) => r.maxRssKb);
  const header = ['row', 'configuration', 'CPU s', '×(a)', '×(a1)', 'wall s', 'peak RSS MB', 'RSS ×(a1)', 'findings'];
  const table = [header];
  for (const row of selected) {
    if (failures[row] && results[row].length === 0) {
      table.push([`(${row})`, ROWS[row], `did not run: ${failures[row]}`]);
      continue;
    }
    const last = results[row].at(-1);
    const count = Object.values(last.findings).reduce((n, k) => n + k, 0);
    const extra = last.fatal ? ` (+${last.fatal} not from a rule: ${last.fatalSamples[0]})` : '';
    table.push([
      `(${row})`,
      ROWS[row],
      fmt(cpu(row) / 1000),
      fmt(cpu(row) / cpu('a'), 2),
      fmt(cpu(row) / cpu('a1'), 2),
      fmt(med(row, (r) => r.wallMs) / 1000),
      fmt(rss(row) / 1024, 0),
      fmt(rss(row) / rss('a1'), 2),
      `${count}${extra}`,
    ]);
  }
  const widths = header.map((_, i) => Math.max(...table.filter((r) => r.length === header.length).map((r) => String(r[i]).length)));
  console.log(
    `\n${files.length} files, ${lines} lines; ${RUNS} rounds, configurations alternating; medians; ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)} at the end`,
  );
  for (const r of table) {
    if (r.length !== header.length) console.log(`${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2]}`);
    else console.log(r.map((cell, i) => (i < 2 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join('  '));
  }

  // Findings of (b) by rule, and whether oxlint's match them exactly.
  const bLast = results.b?.at(-1);
  if (bLast) console.log(`\n(b) findings by rule: ${JSON.stringify(bLast.findings)}`);
  if (results.f?.length && results.b?.length) {
    const [bText, fText] = await Promise.all([readFile(dumps.b, 'utf8'), readFile(dumps.f, 'utf8')]);
    const bSet = new Set(bText.split('\n').filter(Boolean));
    const fSet = new Set(fText.split('\n').filter(Boolean));
    const onlyB = [...bSet].filter((x) => !fSet.has(x));
    const onlyF = [...fSet].filter((x) => !bSet.has(x));
    console.log(
      onlyB.length === 0 && onlyF.length === 0
        ? `(f) findings match (b) exactly: ${bSet.size} findings, same file:line:column and rule`
        : `(f) findings differ from (b): ${onlyB.length} only in (b), ${onlyF.length} only in (f); e.g. ${[...onlyB.slice(0, 2).map((x) => `b: ${x}`), ...onlyF.slice(0, 2).map((x) => `f: ${x}`)].join('; ')}`,
    );
  }

  // Per-rule split from the stats pass. ESLint's stats are wall-clock inside the process, so each
  // share is taken against (a)'s lint time as it would be in that same process: the stats pass's
  // own parse time × (a)'s (total / parse) from (a)'s stats.
  const budgets = [];
  const check = (label, value, limit) => budgets.push(`${value <= limit ? 'PASS' : 'FAIL'}  ${label}: ${fmt(value, 3)} (limit ${limit})`);
  if (results[STATS].length) {
    const aShape = med('a', (r) => r.totalMs / r.parseMs);
    const aEquivalent = med(STATS, (r) => r.parseMs) * aShape;
    console.log(`\nper-rule time (stats pass of (b); ms, median; % of (a)'s lint time in the same process, ${fmt(aEquivalent, 0)} ms):`);
    const analysis = med(STATS, (r) => r.analysis.total);
    const shares = [];
    for (const id of ctx.ruleIds) {
      const eslintMs = med(STATS, (r) => r.ruleMs[id] ?? 0);
      const own = med(STATS, (r) => (r.ruleMs[id] ?? 0) - (r.analysis.byRule[id] ?? 0));
      shares.push([id, own]);
      console.log(`  ${id.padEnd(40)} ${fmt(own).padStart(8)} ms  ${fmt((own / aEquivalent) * 100, 2).padStart(6)} %   (ESLint stats ${fmt(eslintMs)} ms incl. analysis it asked for)`);
    }
    console.log(`  ${'shared analysis (all rules)'.padEnd(40)} ${fmt(analysis).padStart(8)} ms  ${fmt((analysis / aEquivalent) * 100, 2).padStart(6)} %`);
    const byModule = {};
    for (const r of results[STATS]) for (const [m, ms] of Object.entries(r.analysis.byModule)) (byModule[m] ??= []).push(ms);
    const top = Object.entries(byModule)
      .map(([m, xs]) => [m, median(xs)])
      .sort((p, q) => q[1] - p[1])
      .slice(0, 5);
    console.log(`    by module: ${top.map(([m, ms]) => `${m} ${fmt(ms)} ms`).join(', ')}`);
    for (const [id, own] of shares) check(`${id} / (a)`, own / aEquivalent, 0.05);
    check('shared analysis / (a)', analysis / aEquivalent, 0.05);
  }
  if (results.b?.length) check('(b) / (a1) CPU', cpu('b') / cpu('a1'), 1.1);
  if (results.b?.length) check('(b) / (a1) peak RSS', rss('b') / rss('a1'), 1.1);
  if (results.c?.length && results.d?.length) check('(c) / (d) CPU', cpu('c') / cpu('d'), 1.0);
  console.log(`\nbudgets:\n${budgets.map((b) => `  ${b}`).join('\n')}`);
  console.log(`\nbench took ${((performance.now() - started) / 1000 / 60).toFixed(1)} min`);
  await rm(tmp, { recursive: true, force: true });
}

await main();
