// `npm run test:corpus`: the full real-code sweep over every .js .jsx .mjs .cjs .ts .tsx .mts .cts
// file under the workspace's node_modules. Every file is linted without types; files of packages
// that ship a tsconfig.json are linted again with a program built from that package's files.
// The work is split by package across worker processes (one per core, at most 4) and the parent
// adds up their counts. Exits 1 on any rule crash or any fix/suggestion that does not re-parse.
//   node --import tsx test/reliability/sweep.ts [--workers N] [--limit N]
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { SweepStats } from './corpus';
import {
  emptyStats, formatStats, hasTsconfig, listCorpus, mergeStats, packageOf, packageProgram, repoRoot, runJsonChild, sweepFile,
} from './corpus';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: String(Math.min(4, os.availableParallelism())) },
    shard: { type: 'string' },
    limit: { type: 'string' },
  },
});

/** Files grouped by package, packages in a fixed order; shard i takes every n-th package. */
function shardFiles(shard: number, shards: number): Map<string, string[]> {
  let files = listCorpus();
  if (values.limit) files = files.slice(0, Number(values.limit));
  const byPackage = new Map<string, string[]>();
  for (const file of files) {
    const pkg = packageOf(file);
    byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), file]);
  }
  return new Map([...byPackage].filter((_, index) => index % shards === shard));
}

function runShard(shard: number, shards: number): SweepStats {
  const stats = emptyStats();
  const packages = shardFiles(shard, shards);
  let done = 0;
  for (const [pkg, files] of packages) {
    const started = performance.now();
    const program = hasTsconfig(pkg) ? packageProgram(pkg, files) : undefined;
    for (const file of files) {
      const fileStarted = performance.now();
      sweepFile(stats, file, program);
      const seconds = (performance.now() - fileStarted) / 1000;
      if (seconds > 30) process.stderr.write(`shard ${shard}: slow file ${path.relative(repoRoot, file)} took ${seconds.toFixed(0)} s\n`);
    }
    done++;
    const seconds = (performance.now() - started) / 1000;
    if (seconds > 10 || done % 50 === 0) {
      process.stderr.write(`shard ${shard}: ${done}/${packages.size} packages, ${stats.files} files; ${path.relative(repoRoot, pkg)} took ${seconds.toFixed(0)} s\n`);
    }
  }
  return stats;
}

function runWorker(shard: number, shards: number): Promise<SweepStats> {
  const args = ['--import', 'tsx', __filename, '--shard', `${shard}/${shards}`, ...(values.limit ? ['--limit', values.limit] : [])];
  return runJsonChild<SweepStats>(args, `sweep shard ${shard}`);
}

async function main(): Promise<void> {
  if (values.shard) {
    const [shard, shards] = values.shard.split('/').map(Number);
    const started = Date.now();
    const stats = runShard(shard!, shards!);
    process.stderr.write(`shard ${shard}/${shards}: ${stats.files} files, ${stats.lines} lines, ${stats.crashes.length} crashes in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    process.stdout.write(JSON.stringify(stats));
    return;
  }
  const started = Date.now();
  const shards = Math.max(1, Number(values.workers));
  const results = await Promise.all(Array.from({ length: shards }, (_, shard) => runWorker(shard, shards)));
  const total = emptyStats();
  for (const result of results) mergeStats(total, result);
  process.stdout.write(`${formatStats(total, (Date.now() - started) / 1000)}\n`);
  process.exitCode = total.crashes.length > 0 || total.fixFailures.length > 0 ? 1 : 0;
}

void main();
