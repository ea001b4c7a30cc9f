// The CLI on every core: the built CLI over a real corpus with `--concurrency off` and `auto`,
// printing the wall-time speed-up, the total CPU ratio (every thread of the process: getrusage
// RUSAGE_SELF, read in the CLI process itself as it exits), the peak RSS ratio, and whether the
// two reports are byte-identical. With --eslint, ESLint's own `--concurrency off` and `2` with
// the plugin's recommended config over the same files, for comparison.
//
//   node bench/cli-concurrency.mjs <corpus> [--type-aware] [--eslint]
//
// <corpus> is a folder to lint, outside the repository, e.g. renovatebot/renovate's lib/ and
// tsconfig.json (the README's figures):
//   git clone --depth 1 https://github.com/renovatebot/renovate /tmp/renovate
//   mkdir -p /work/corpora/renovate && cp -r /tmp/renovate/lib /tmp/renovate/tsconfig.json /work/corpora/renovate/
//   node bench/cli-concurrency.mjs /work/corpora/renovate
// BENCH_RUNS (default 1) rounds, alternating the two modes; each figure is the median.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'server', 'dist', 'cli.js');
const ESLINT = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
const PLUGIN = path.join(ROOT, 'eslint-plugin', 'dist', 'index.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const TARGETS = { wall: 1.25, cpu: 1.15, rss: 2.5 };

const args = process.argv.slice(2);
const corpus = args.find((a) => !a.startsWith('--'));
const typeAware = args.includes('--type-aware');
const withEslint = args.includes('--eslint');

if (!corpus || !existsSync(corpus)) {
  process.stderr.write(
    `${corpus ? `no corpus at ${corpus}` : 'name the corpus folder to lint'}. Fetch one outside the repository, e.g. renovate's lib/:\n` +
      '  git clone --depth 1 https://github.com/renovatebot/renovate /tmp/renovate\n' +
      '  mkdir -p /work/corpora/renovate && cp -r /tmp/renovate/lib /tmp/renovate/tsconfig.json /work/corpora/renovate/\n' +
      '  node bench/cli-concurrency.mjs /work/corpora/renovate\n',
  );
  process.exit(2);
}
for (const [file, what] of [[CLI, 'the CLI'], [PLUGIN, 'the plugin']]) {
  if (!existsSync(file)) {
    process.stderr.write(`${what} is not built (${path.relative(ROOT, file)}); run npm run build first\n`);
    process.exit(2);
  }
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'async-hazards-bench-concurrency-'));
// Loaded with --require into the measured process: its own CPU time covers all its threads.
const probe = path.join(scratch, 'usage-probe.cjs');
writeFileSync(
  probe,
  "process.on('exit', () => { const u = process.resourceUsage(); require('fs').writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssKb: u.maxRSS })); });\n",
);

/** One measured process: wall time, CPU of all its threads, peak RSS, and its report. */
async function measure(name, argv) {
  const usageFile = path.join(scratch, `${name}.usage.json`);
  const reportFile = path.join(scratch, `${name}.report`);
  const started = performance.now();
  const child = await run(process.execPath, ['--require', probe, ...argv(reportFile)], {
    cwd: corpus,
    env: { ...process.env, BENCH_USAGE_FILE: usageFile },
    maxBuffer: 1 << 28,
  }).catch((error) => {
    // Exit code 1 means findings; anything else is a failed run.
    if (error.code === 1) return error;
    throw new Error(`${name} failed (${error.code}): ${error.stderr}`);
  });
  const wallMs = performance.now() - started;
  const usage = JSON.parse(await readFile(usageFile, 'utf8'));
  return { wallMs, ...usage, report: await readFile(reportFile, 'utf8'), stderr: child.stderr };
}

const cli = (concurrency) => (out) => [CLI, '.', '--format', 'json', '--output-file', out, '--concurrency', concurrency, ...(typeAware ? ['--type-aware'] : [])];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** Rounds alternate the two configurations, so load on the shared machine hits both alike. */
async function compare(label, one, many) {
  const rows = { one: [], many: [] };
  for (let round = 0; round < RUNS; round++) {
    const order = round % 2 ? ['many', 'one'] : ['one', 'many'];
    for (const which of order) rows[which].push(await measure(`${label}-${which}-${round}`, which === 'one' ? one : many));
  }
  const pick = (which, key) => median(rows[which].map((r) => r[key]));
  const reports = new Set([...rows.one, ...rows.many].map((r) => r.report));
  return {
    wallOne: pick('one', 'wallMs'),
    wallMany: pick('many', 'wallMs'),
    cpuOne: pick('one', 'cpuMs'),
    cpuMany: pick('many', 'cpuMs'),
    rssOne: pick('one', 'maxRssKb'),
    rssMany: pick('many', 'maxRssKb'),
    identical: reports.size === 1,
    report: rows.one[0].report,
  };
}

function summarise(report) {
  const files = JSON.parse(report);
  const findings = files.reduce((n, f) => n + f.messages.length, 0);
  return `${files.length} files, ${findings} findings`;
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const mb = (kb) => `${Math.round(kb / 1024)} MB`;
const verdict = (ok) => (ok ? 'ok' : 'MISSED');

try {
  const cores = os.availableParallelism();
  process.stdout.write(`corpus ${corpus}; ${cores} cores; ${RUNS} round(s); ${typeAware ? 'type-aware' : 'syntactic'}\n`);
  const r = await compare('cli', cli('off'), cli('auto'));
  const wall = r.wallOne / r.wallMany;
  const cpu = r.cpuMany / r.cpuOne;
  const rss = r.rssMany / r.rssOne;
  process.stdout.write(
    [
      `async-hazards --concurrency off:  wall ${s(r.wallOne)}, CPU ${s(r.cpuOne)}, peak RSS ${mb(r.rssOne)}`,
      `async-hazards --concurrency auto: wall ${s(r.wallMany)}, CPU ${s(r.cpuMany)}, peak RSS ${mb(r.rssMany)}`,
      `wall speed-up ${wall.toFixed(2)}x (target >= ${TARGETS.wall}x: ${verdict(wall >= TARGETS.wall)})`,
      `total CPU ${cpu.toFixed(2)}x of one thread (target <= ${TARGETS.cpu}x: ${verdict(cpu <= TARGETS.cpu)})`,
      `peak RSS ${rss.toFixed(2)}x of one thread (target <= ${TARGETS.rss}x: ${verdict(rss <= TARGETS.rss)})`,
      `reports ${r.identical ? 'byte-identical' : 'DIFFER'} (${summarise(r.report)})`,
      '',
    ].join('\n'),
  );
  let failed = !r.identical;

  if (withEslint) {
    // ESLint's flat config must sit inside the linted folder to apply to it; removed afterwards.
    const config = path.join(corpus, `.async-hazards-bench-${process.pid}.eslint.config.mjs`);
    const preset = typeAware ? 'recommended-type-checked' : 'recommended';
    writeFileSync(config, `import asyncHazards from ${JSON.stringify(PLUGIN)};\nexport default [asyncHazards.configs[${JSON.stringify(preset)}]];\n`);
    try {
      const eslint = (concurrency) => (out) => [ESLINT, '--config', config, '--format', 'json', '--output-file', out, '--concurrency', concurrency, '.'];
      const e = await compare('eslint', eslint('off'), eslint('2'));
      process.stdout.write(
        [
          `eslint --concurrency off: wall ${s(e.wallOne)}, CPU ${s(e.cpuOne)}, peak RSS ${mb(e.rssOne)}`,
          `eslint --concurrency 2:   wall ${s(e.wallMany)}, CPU ${s(e.cpuMany)}, peak RSS ${mb(e.rssMany)}`,
          `eslint wall speed-up ${(e.wallOne / e.wallMany).toFixed(2)}x, total CPU ${(e.cpuMany / e.cpuOne).toFixed(2)}x`,
          `eslint reports ${e.identical ? 'byte-identical' : 'DIFFER'} (${summarise(e.report)})`,
          '',
        ].join('\n'),
      );
      failed ||= !e.identical;
    } finally {
      rmSync(config, { force: true });
    }
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
