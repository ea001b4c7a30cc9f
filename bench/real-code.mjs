// The real-code precision bench (not part of `npm test`; see bench/REAL-CODE.md). It lints a
// pinned list of public repositories (the list is bench/real-code-repos.json; the copies are kept
// outside this repository, and `--restore` makes them from bare git mirrors) with the built zero-config CLI
// under both presets and prints findings per rule per 100k non-blank lines. `--sample` draws a
// seeded, repository-stratified sample of recommended findings and writes blind audit packets
// (code, file and a one-line hazard class only) plus a private key; `--score` joins the
// reviewers' verdicts with that key.
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from '@typescript-eslint/typescript-estree';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The pinned list lives here; the copies it names do not (real code is not ours to keep). */
const DEFAULT_LIST = path.join(ROOT, 'bench', 'real-code-repos.json');
const DEFAULT_COPIES = path.resolve(ROOT, '..', 'corpora', 'real-code');
const DEFAULT_CLI = path.join(ROOT, 'server', 'dist', 'cli.js');

const RULES = ['release-in-finally', 'no-sleep-holding-permit', 'no-blocking-in-async', 'no-orphaned-promise', 'no-unbounded-fan-out'];
const PRESETS = ['recommended', 'strict'];
/** What `--sample` draws from: a preset's findings, or those strict reports and recommended does not. */
const SAMPLE_POOLS = ['recommended', 'strict', 'strict-only'];

/**
 * What a reviewer is told about each rule: the hazard, not the rule's reasoning. Neutral on
 * purpose, so the reviewer judges the code rather than our argument about it.
 */
const HAZARD_CLASS = {
  'release-in-finally': 'a lock, semaphore or pooled connection acquired by hand and possibly not released when an exception happens',
  'no-sleep-holding-permit': 'a delay, retry sleep or backoff wait that happens while a lock or concurrency permit is held',
  'no-blocking-in-async': 'a synchronous call that blocks the event loop (file system, child process, crypto, compression) while other work of the same process may be waiting',
  'no-orphaned-promise': 'a promise that nobody awaits, returns or handles, so its failure (or its completion) goes unnoticed',
  'no-unbounded-fan-out': 'asynchronous work started for every item of a collection at once, with no bound on how many run at the same time',
};

/**
 * Left out of every repository, as in the shared audit: tests, fixtures, mocks, build output and
 * vendored code say nothing about how the product behaves in production.
 */
const SKIP_DIRS = new Set(['node_modules', 'test', 'tests', '__tests__', '__mocks__', '__fixtures__', 'fixtures', 'e2e', 'dist', 'build', 'vendor', 'coverage']);
const SOURCE = /\.(?:js|jsx|mjs|cjs|ts|tsx|mts|cts)$/;
const SKIP_FILE = /\.d\.[mc]?ts$|\.(?:spec|test)\.[^/]+$|\.min\.js$/;
/** A line this long is generated or minified code. */
const MAX_LINE = 2000;
/** Above this, a command line risks the kernel's argument limit. */
const MAX_ARGS_CHARS = 1_500_000;

const CONTEXT_LINES = 20;
const MAX_FUNCTION_LINES = 120;

const USAGE = `Usage: node bench/real-code.mjs [options]

  --repos <file>       the pinned list (default: $ASYNC_HAZARDS_REAL_CODE or bench/real-code-repos.json)
  --copies <dir>       where the copies, results and audit packets are (default: the list's folder when
                       --repos is given, else ../corpora/real-code next to this repository)
  --restore <dir>      first make each missing copy from a bare git mirror holding its commit, at
                       <dir>/<owner>+<name>/repo or <dir>/<owner>/<name>.git
  --cli <file>         the CLI to run (default: server/dist/cli.js; run \`npm run build\` first)
  --only <a,b>         only these repositories (by name)
  --preset <p>         recommended, strict or both (default both)
  --jobs <n>           CLI processes at once (default 1)
  --results <file>     where the run's findings go (default: <list dir>/results/<commit>.json)
  --reuse <file>       read findings from an earlier run instead of linting
  --count              only count files and lines
  --sample <n> --seed <s> [--from <pool>] [--out <dir>] [--batch <k>]
                       blind audit packets: n findings per rule, k per packet file (default 10),
                       into <list dir>/audit-<seed>/ ; the key goes next to it. The pool is
                       recommended (default), strict, or strict-only (what strict adds; the
                       packets then go to audit-<seed>-strict-only/)
  --score <verdicts.json> [--key <key.json>]
                       per-rule real / debatable / noise from the reviewers' verdicts
`;

function parseArgs(argv) {
  const opts = { repos: process.env.ASYNC_HAZARDS_REAL_CODE ?? DEFAULT_LIST, copies: null, cli: DEFAULT_CLI, only: null, presets: PRESETS, jobs: 1, batch: 10, from: 'recommended' };
  const value = (i) => {
    const v = argv[i + 1];
    if (v === undefined) throw new Error(`${argv[i]} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    switch (flag) {
      case '--repos': opts.repos = path.resolve(value(i)); i++; break;
      case '--copies': opts.copies = path.resolve(value(i)); i++; break;
      case '--restore': opts.restore = path.resolve(value(i)); i++; break;
      case '--cli': opts.cli = path.resolve(value(i)); i++; break;
      case '--only': opts.only = new Set(value(i).split(',')); i++; break;
      case '--preset': {
        const p = value(i); i++;
        if (p === 'both') opts.presets = PRESETS;
        else if (PRESETS.includes(p)) opts.presets = [p];
        else throw new Error(`--preset: recommended, strict or both, not ${p}`);
        break;
      }
      case '--jobs': opts.jobs = positive(flag, value(i)); i++; break;
      case '--results': opts.results = path.resolve(value(i)); i++; break;
      case '--reuse': opts.reuse = path.resolve(value(i)); i++; break;
      case '--count': opts.count = true; break;
      case '--sample': opts.sample = positive(flag, value(i)); i++; break;
      case '--seed': opts.seed = value(i); i++; break;
      case '--out': opts.out = path.resolve(value(i)); i++; break;
      case '--from': {
        opts.from = value(i); i++;
        if (!SAMPLE_POOLS.includes(opts.from)) throw new Error(`--from: ${SAMPLE_POOLS.join(', ')}, not ${opts.from}`);
        break;
      }
      case '--batch': opts.batch = positive(flag, value(i)); i++; break;
      case '--score': opts.score = path.resolve(value(i)); i++; break;
      case '--key': opts.key = path.resolve(value(i)); i++; break;
      case '--help': case '-h': opts.help = true; break;
      default: throw new Error(`unknown option ${flag}`);
    }
  }
  if (opts.sample !== undefined && opts.seed === undefined) throw new Error('--sample needs --seed');
  opts.copies ??= path.resolve(opts.repos) === DEFAULT_LIST ? DEFAULT_COPIES : path.dirname(path.resolve(opts.repos));
  return opts;
}

function positive(flag, text) {
  if (!/^[1-9]\d*$/.test(text)) throw new Error(`${flag} needs a whole number above 0, not ${text}`);
  return Number(text);
}

async function exists(p) {
  return stat(p).then(
    () => true,
    () => false,
  );
}

async function loadList(file, base) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new Error(`no repository list at ${file}; pass --repos <file> or set ASYNC_HAZARDS_REAL_CODE (bench/REAL-CODE.md has the list)`);
  }
  const list = JSON.parse(text);
  return list.repos.map((r) => ({ ...r, dir: path.resolve(base, r.path), exclude: (r.exclude ?? []).map(globToRegExp) }));
}

/** `**` any depth, `*` within one path segment; matched against the path from the repository root. */
function globToRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') {
      re += '[^/]*';
    } else {
      re += /[.+?^${}()|[\]\\]/.test(c) ? `\\${c}` : c;
    }
  }
  return new RegExp(`^${re}(?:/.*)?$`);
}

function getInstructions(repo, missing) {
  const [owner, name] = repo.repository.split('/');
  const excludes = (repo.archiveExclude ?? []).map((p) => ` ':!${p}'`).join('');
  return [
    `  ${repo.name}: get ${repo.repository} at ${repo.commit} into ${repo.dir} (${missing.join(', ')} not found):`,
    `    mkdir -p ${repo.dir} && cd ${repo.dir} && git init -q && git fetch -q --depth 1 https://github.com/${owner}/${name} ${repo.commit} \\`,
    `      && git archive FETCH_HEAD -- .${excludes} | tar -x && rm -rf .git \\`,
    `      && find . -name 'eslint.config.*' -not -path '*/node_modules/*' -delete`,
  ].join('\n');
}

/**
 * Makes each missing copy from a local bare mirror that holds the pinned commit: the whole tree
 * (roles and phases read the repository's package.json files and configs), minus the entry's
 * `archiveExclude`, without its ESLint flat configs. A repository with no mirror is left to
 * checkCopies, which prints how to get it.
 */
async function restoreCopies(repos, mirrors) {
  for (const repo of repos) {
    if (await exists(repo.dir)) continue;
    const [owner, name] = repo.repository.split('/');
    const base = path.join(mirrors, `${owner}+${name}`, 'repo');
    // A bare mirror, the .git folder of a checkout, or an <owner>/<name>.git mirror.
    const candidates = [path.join(base, '.git'), base, path.join(mirrors, owner, `${name}.git`)];
    let gitDir = null;
    for (const c of candidates) if (gitDir === null && (await exists(c))) gitDir = c;
    if (gitDir === null) continue;
    await mkdir(repo.dir, { recursive: true });
    const excludes = (repo.archiveExclude ?? []).map((p) => `':!${p}'`).join(' ');
    // A mirror may lack a large blob outside what is linted; git archive then stops with an error
    // after writing what it could, so the copy is checked below rather than trusted.
    await run('sh', ['-c', `git --git-dir='${gitDir}' archive ${repo.commit} -- . ${excludes} | tar -x -C '${repo.dir}'`], { maxBuffer: 1 << 26 }).catch((error) => {
      console.error(`  ${repo.name}: git archive reported: ${String(error.stderr ?? error.message).trim().split('\n')[0]}`);
    });
    for (const config of await findConfigs(repo)) await rm(config);
    console.error(`  ${repo.name}: restored from ${gitDir}`);
  }
}

/**
 * A copy is usable when it and its sub-paths exist and no ESLint flat config would be picked up:
 * the CLI runs a project's config, and without the project's node_modules it cannot load.
 */
async function checkCopies(repos) {
  const problems = [];
  for (const repo of repos) {
    const missing = [];
    for (const sub of repo.subpaths) if (!(await exists(path.join(repo.dir, sub)))) missing.push(sub);
    if (missing.length > 0) {
      problems.push(getInstructions(repo, missing));
      continue;
    }
    const configs = await findConfigs(repo);
    if (configs.length > 0) {
      problems.push(
        `  ${repo.name}: ESLint flat configs the zero-config CLI would try to load; delete them from the copy:\n` +
          configs.map((c) => `    rm ${c}`).join('\n'),
      );
    }
  }
  return problems;
}

async function findConfigs(repo) {
  const found = new Set();
  const isConfig = (n) => /^eslint\.config\.[mc]?[jt]s$/.test(n);
  const walk = async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.git') await walk(path.join(dir, entry.name));
      else if (entry.isFile() && isConfig(entry.name)) found.add(path.join(dir, entry.name));
    }
  };
  for (const sub of repo.subpaths) {
    const abs = path.join(repo.dir, sub);
    const isDir = (await stat(abs)).isDirectory();
    // ESLint looks a file's config up from its folder towards the root.
    for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
      for (const n of await readdir(dir).catch(() => [])) if (isConfig(n)) found.add(path.join(dir, n));
      if (path.dirname(dir) === dir) break;
    }
    if (isDir) await walk(abs);
  }
  return [...found].sort();
}

/** The files the bench lints in one repository, with their non-blank line counts. */
async function collectFiles(repo) {
  const files = [];
  let generated = 0;
  const walk = async (dir) => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const abs = path.join(dir, entry.name);
      const rel = path.relative(repo.dir, abs).split(path.sep).join('/');
      if (repo.exclude.some((re) => re.test(rel))) continue;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) await walk(abs);
      } else if (entry.isFile() && SOURCE.test(entry.name) && !SKIP_FILE.test(entry.name)) {
        const text = await readFile(abs, 'utf8');
        const lines = text.split('\n');
        if (lines.some((l) => l.length > MAX_LINE)) {
          generated++;
          continue;
        }
        files.push({ rel, lines: lines.filter((l) => l.trim() !== '').length });
      }
    }
  };
  for (const sub of repo.subpaths) {
    const abs = path.join(repo.dir, sub);
    if ((await stat(abs)).isDirectory()) await walk(abs);
    else files.push({ rel: sub, lines: (await readFile(abs, 'utf8')).split('\n').filter((l) => l.trim() !== '').length });
  }
  return { files, generated };
}

async function lintRepo(repo, files, preset, cli) {
  const args = files.map((f) => f.rel);
  if (args.reduce((n, a) => n + a.length + 1, 0) > MAX_ARGS_CHARS) throw new Error(`${repo.name}: too many files for one command line; narrow its sub-paths`);
  const out = path.join(os.tmpdir(), `real-code-${process.pid}-${repo.name}-${preset}.json`);
  const flags = ['--format', 'json', '--output-file', out, ...(preset === 'strict' ? ['--strict'] : [])];
  const start = performance.now();
  let stderr = '';
  let code = 0;
  try {
    ({ stderr } = await run(process.execPath, [cli, ...flags, '--', ...args], { cwd: repo.dir, maxBuffer: 1 << 26 }));
  } catch (error) {
    // Exit 1 only says findings were reported; anything else is a failure of the run.
    code = error.code;
    stderr = error.stderr ?? String(error);
  }
  const seconds = (performance.now() - start) / 1000;
  if (code !== 0 && code !== 1) {
    const report = await readFile(out, 'utf8').catch(() => null);
    if (report === null) throw new Error(`${repo.name} (${preset}): the CLI exited ${code}:\n${stderr.trim().split('\n').slice(-5).join('\n')}`);
  }
  const reports = JSON.parse(await readFile(out, 'utf8'));
  await rm(out, { force: true });
  const findings = [];
  const unparsed = [];
  for (const report of reports) {
    const file = path.relative(repo.dir, report.filePath).split(path.sep).join('/');
    for (const m of report.messages) {
      if (m.fatal || !m.ruleId) {
        unparsed.push(`${file}:${m.line} ${m.message}`);
        continue;
      }
      const rule = m.ruleId.replace(/^async-hazards\//, '');
      findings.push({
        repo: repo.name,
        rule,
        file,
        line: m.line,
        column: m.column,
        endLine: m.endLine,
        endColumn: m.endColumn,
        messageId: m.messageId,
        message: m.message,
        ...(m.context ? { context: m.context } : {}),
      });
    }
  }
  // The CLI's closing summary: one line per crashed rule, with how many files it crashed on.
  let crashes = 0;
  for (const m of stderr.matchAll(/^async-hazards: \S+ crashed on (\d+) files? \(/gm)) crashes += Number(m[1]);
  return { findings, unparsed, crashes, seconds };
}

/** Runs tasks with at most `jobs` at once, in order of the list. */
async function pool(tasks, jobs) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  const workers = [];
  for (let w = 0; w < Math.min(jobs, tasks.length); w++) workers.push(worker());
  await Promise.all(workers);
  return results;
}

async function productCommit() {
  const { stdout } = await run('git', ['-C', ROOT, 'rev-parse', '--short=10', 'HEAD']);
  const { stdout: dirty } = await run('git', ['-C', ROOT, 'status', '--porcelain', '--untracked-files=no']);
  return `${stdout.trim()}${dirty.trim() ? '+dirty' : ''}`;
}

async function lintAll(repos, opts) {
  const collected = [];
  for (const repo of repos) collected.push({ repo, ...(await collectFiles(repo)) });
  const summary = collected.map(({ repo, files, generated }) => ({
    name: repo.name,
    repository: repo.repository,
    commit: repo.commit,
    subpaths: repo.subpaths,
    files: files.length,
    lines: files.reduce((n, f) => n + f.lines, 0),
    generated,
    presets: {},
  }));
  if (opts.count) return { summary, findings: [] };
  if (!(await exists(opts.cli))) throw new Error(`no CLI at ${opts.cli}; run \`npm run build\` first`);
  const tasks = [];
  for (const [i, c] of collected.entries()) {
    for (const preset of opts.presets) {
      tasks.push(async () => {
        const result = await lintRepo(c.repo, c.files, preset, opts.cli);
        process.stderr.write(`  ${c.repo.name} ${preset}: ${result.findings.length} findings in ${result.seconds.toFixed(1)} s\n`);
        return { i, preset, result };
      });
    }
  }
  const findings = [];
  for (const { i, preset, result } of await pool(tasks, opts.jobs)) {
    const s = summary[i];
    const byRule = Object.fromEntries(RULES.map((r) => [r, 0]));
    for (const f of result.findings) byRule[f.rule] = (byRule[f.rule] ?? 0) + 1;
    s.presets[preset] = { byRule, unparsed: result.unparsed, crashes: result.crashes, seconds: Number(result.seconds.toFixed(1)) };
    for (const f of result.findings) findings.push({ ...f, preset });
  }
  return { summary, findings };
}

const per100k = (n, lines) => (lines === 0 ? 0 : (n * 100000) / lines);
const fmtRate = (x) => (x === 0 ? '0' : x < 10 ? x.toFixed(2) : x.toFixed(1));

function printSummary(result) {
  const { summary } = result;
  const out = [];
  out.push(`product ${result.product}, CLI ${result.cli}${result.seconds ? `, ${result.seconds} s wall${result.load ? ` (load average ${result.load.join(', ')} at the end)` : ''}` : ''}`);
  out.push('');
  out.push('| repository | commit | sub-paths | files | lines | generated, left out |');
  out.push('|---|---|---|---:|---:|---:|');
  for (const s of summary) out.push(`| ${s.repository} | ${s.commit.slice(0, 10)} | ${s.subpaths.join(', ')} | ${s.files} | ${s.lines} | ${s.generated} |`);
  const files = summary.reduce((n, s) => n + s.files, 0);
  const lines = summary.reduce((n, s) => n + s.lines, 0);
  out.push(`| **total** | | | ${files} | ${lines} | ${summary.reduce((n, s) => n + s.generated, 0)} |`);
  for (const preset of PRESETS) {
    if (!summary.some((s) => s.presets[preset])) continue;
    out.push('');
    out.push(`${preset}: findings (per 100k lines)`);
    out.push('');
    out.push(`| repository | ${RULES.join(' | ')} | all | s |`);
    out.push(`|---|${RULES.map(() => '---:').join('|')}|---:|---:|`);
    const total = Object.fromEntries(RULES.map((r) => [r, 0]));
    let seconds = 0;
    let notes = [];
    for (const s of summary) {
      const p = s.presets[preset];
      if (!p) continue;
      const all = RULES.reduce((n, r) => n + p.byRule[r], 0);
      const cells = RULES.map((r) => `${p.byRule[r]} (${fmtRate(per100k(p.byRule[r], s.lines))})`);
      out.push(`| ${s.name} | ${cells.join(' | ')} | ${all} (${fmtRate(per100k(all, s.lines))}) | ${p.seconds} |`);
      for (const r of RULES) total[r] += p.byRule[r];
      seconds += p.seconds;
      if (p.parseErrors) notes.push(`${s.name}: ${p.parseErrors} files did not parse`);
      if (p.unparsed?.length) notes.push(`${s.name}: ${p.unparsed.length} files did not parse (${p.unparsed.slice(0, 3).join('; ')}${p.unparsed.length > 3 ? '; …' : ''})`);
      if (p.crashes) notes.push(`${s.name}: a rule crashed on ${p.crashes} files (its findings there are missing)`);
    }
    const all = RULES.reduce((n, r) => n + total[r], 0);
    out.push(`| **total** | ${RULES.map((r) => `${total[r]} (${fmtRate(per100k(total[r], lines))})`).join(' | ')} | ${all} (${fmtRate(per100k(all, lines))}) | ${seconds.toFixed(0)} |`);
    if (notes.length) out.push('', ...notes.map((n) => `- ${n}`));
  }
  return out.join('\n');
}

/** sfc32 seeded from a string through a small hash: the same seed draws the same sample anywhere. */
function makeRandom(seed) {
  let h = 1779033703 ^ seed.length;
  const mix = () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return (h ^= h >>> 16) >>> 0;
  };
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix();
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

function shuffle(items, random) {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** Repositories a sample covers at least, when the rule reports in that many. */
const MIN_REPOS = 5;

/**
 * `n` findings of one rule: first one from each of up to MIN_REPOS repositories drawn at random,
 * then the rest uniformly from what is left. The sample stays close to proportional while no single
 * large repository can fill it alone.
 */
function drawSample(findings, n, random) {
  const byRepo = new Map();
  for (const f of findings) byRepo.set(f.repo, [...(byRepo.get(f.repo) ?? []), f]);
  const picked = new Set();
  for (const repo of shuffle([...byRepo.keys()].sort(), random).slice(0, Math.min(MIN_REPOS, n))) {
    const options = byRepo.get(repo);
    picked.add(options[Math.floor(random() * options.length)]);
  }
  const rest = shuffle(findings.filter((f) => !picked.has(f)), random);
  for (const f of rest) {
    if (picked.size >= n) break;
    picked.add(f);
  }
  return [...picked];
}

const LANG = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' };

/**
 * The innermost function that starts before the finding and ends after it, shown from the start of
 * its declaration (method name, `const f =`). A callback that is itself the finding, or that starts
 * later on its line (a fan-out's mapper), is not its enclosing function.
 */
function enclosingFunction(text, file, line, column) {
  let ast;
  try {
    ast = parse(text, { loc: true, range: true, jsx: !/\.[mc]?ts$/.test(file), comment: false });
  } catch {
    return undefined;
  }
  // ESLint columns count from 1, ESTree's from 0.
  const at = { line, column: column - 1 };
  const before = (a, b) => a.line < b.line || (a.line === b.line && a.column < b.column);
  let best = null;
  const visit = (node, holder) => {
    if (!node || typeof node.type !== 'string' || !node.loc) return;
    if (before(at, node.loc.start) || before(node.loc.end, at)) return;
    if (/^(?:FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(node.type) && before(node.loc.start, at)) {
      const shown = holder && /^(?:MethodDefinition|Property|PropertyDefinition|VariableDeclarator)$/.test(holder.type) ? holder : node;
      best = { start: shown.loc.start.line, end: node.loc.end.line };
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'loc' || key === 'range' || key === 'parent') continue;
      if (Array.isArray(child)) for (const c of child) visit(c, node);
      else if (child && typeof child === 'object') visit(child, node);
    }
  };
  visit(ast, null);
  return best;
}

function excerpt(lines, from, to, marked) {
  const width = String(to).length;
  const out = [];
  for (let n = from; n <= to; n++) out.push(`${n === marked ? '>>' : '  '} ${String(n).padStart(width)} | ${lines[n - 1] ?? ''}`);
  return out.join('\n');
}

async function writePackets(result, repos, opts) {
  const random = makeRandom(String(opts.seed));
  const where = (f) => `${f.repo}/${f.file}:${f.line}:${f.column}:${f.rule}`;
  const inRecommended = new Set(result.findings.filter((f) => f.preset === 'recommended').map(where));
  const drawable =
    opts.from === 'strict-only'
      ? result.findings.filter((f) => f.preset === 'strict' && !inRecommended.has(where(f)))
      : result.findings.filter((f) => f.preset === opts.from);
  if (!result.findings.some((f) => f.preset === (opts.from === 'recommended' ? 'recommended' : 'strict'))) {
    throw new Error(`the run has no ${opts.from === 'recommended' ? 'recommended' : 'strict'} findings to sample (see --preset)`);
  }
  const dirOf = new Map(repos.map((r) => [r.name, r]));
  const outDir = opts.out ?? path.join(opts.copies, `audit-${opts.seed}${opts.from === 'recommended' ? '' : `-${opts.from}`}`);
  const keyFile = opts.key ?? `${outDir}.key.json`;
  if (outDir.startsWith(ROOT + path.sep)) throw new Error('audit packets stay outside the repository');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const key = { seed: String(opts.seed), pool: opts.from, perRule: opts.sample, product: result.product, created: new Date().toISOString(), findings: {} };
  const template = {};
  const index = [];
  let batchNo = 0;
  for (const rule of RULES) {
    const candidates = drawable.filter((f) => f.rule === rule).sort((a, b) => `${a.repo}/${a.file}:${a.line}:${a.column}`.localeCompare(`${b.repo}/${b.file}:${b.line}:${b.column}`));
    if (candidates.length === 0) continue;
    const sample = shuffle(drawSample(candidates, opts.sample, random), random);
    for (let start = 0; start < sample.length; start += opts.batch) {
      batchNo++;
      const batch = `B${String(batchNo).padStart(2, '0')}`;
      const parts = [`# Audit packet ${batch}`, '', `Hazard class: ${HAZARD_CLASS[rule]}.`, '', 'Read BRIEF.md in this folder first. Judge each finding below as TP, debatable or FP, with a one-line reason.', ''];
      for (const [k, f] of sample.slice(start, start + opts.batch).entries()) {
        const id = `${batch}-${String(k + 1).padStart(2, '0')}`;
        const repo = dirOf.get(f.repo);
        const text = await readFile(path.join(repo.dir, f.file), 'utf8');
        const lines = text.split('\n');
        const from = Math.max(1, f.line - CONTEXT_LINES);
        const to = Math.min(lines.length, f.line + CONTEXT_LINES);
        const lang = LANG[path.extname(f.file)] ?? 'js';
        parts.push(`## ${id}`, '', `- repository: ${repo.repository} @ ${repo.commit}`, `- file: ${f.file}`, `- line: ${f.line}, column ${f.column}`, '');
        parts.push(`\`\`\`${lang}`, excerpt(lines, from, to, f.line), '```', '');
        const fn = enclosingFunction(text, f.file, f.line, f.column);
        if (fn && fn.end - fn.start + 1 <= MAX_FUNCTION_LINES) {
          if (fn.start >= from && fn.end <= to) {
            parts.push(`The enclosing function (lines ${fn.start}–${fn.end}) is all inside the excerpt.`, '');
          } else {
            parts.push(`Enclosing function, lines ${fn.start}–${fn.end}:`, '', `\`\`\`${lang}`, excerpt(lines, fn.start, fn.end, f.line), '```', '');
          }
        } else if (fn) {
          parts.push(`The enclosing function (lines ${fn.start}–${fn.end}) is longer than ${MAX_FUNCTION_LINES} lines; it starts:`, '', `\`\`\`${lang}`, excerpt(lines, fn.start, fn.start, f.line), '```', '');
        } else {
          parts.push(fn === null ? 'The line is at module level.' : 'The file did not parse here; no enclosing function shown.', '');
        }
        key.findings[id] = { rule, messageId: f.messageId, message: f.message, repo: f.repo, repository: repo.repository, commit: repo.commit, file: f.file, line: f.line, column: f.column, ...(f.context ? { context: f.context } : {}) };
        template[id] = { verdict: '', reason: '' };
      }
      const name = `${batch}.md`;
      await writeFile(path.join(outDir, name), `${parts.join('\n')}\n`);
      index.push(name);
    }
  }
  await writeFile(path.join(outDir, 'BRIEF.md'), await reviewerBrief());
  await writeFile(path.join(outDir, 'verdicts.template.json'), `${JSON.stringify(template, null, 2)}\n`);
  await writeFile(keyFile, `${JSON.stringify(key, null, 2)}\n`);
  const covered = Object.fromEntries(RULES.map((r) => [r, new Set(Object.values(key.findings).filter((e) => e.rule === r).map((e) => e.repo))]));
  const lines = [`${index.length} packets in ${outDir} (${Object.keys(key.findings).length} findings); key (never for reviewers): ${keyFile}`];
  for (const r of RULES) {
    const n = Object.values(key.findings).filter((e) => e.rule === r).length;
    if (n) lines.push(`  ${r}: ${n} findings over ${covered[r].size} repositories`);
  }
  return lines.join('\n');
}

/** The brief reviewers get is the one bench/REAL-CODE.md records, word for word. */
async function reviewerBrief() {
  const doc = await readFile(path.join(ROOT, 'bench', 'REAL-CODE.md'), 'utf8');
  const start = doc.indexOf('\n## Reviewer brief\n');
  if (start < 0) throw new Error('bench/REAL-CODE.md has no "## Reviewer brief" section');
  const end = doc.indexOf('\n## ', start + 1);
  return `# Reviewer brief\n${doc.slice(start + '\n## Reviewer brief\n'.length, end < 0 ? undefined : end).trimEnd()}\n`;
}

const VERDICTS = { tp: 'TP', real: 'TP', debatable: 'debatable', fp: 'FP', noise: 'FP' };

async function score(opts) {
  const raw = JSON.parse(await readFile(opts.score, 'utf8'));
  const keyFile = opts.key ?? (opts.seed !== undefined ? path.join(opts.copies, `audit-${opts.seed}.key.json`) : null);
  if (!keyFile) throw new Error('--score needs --key <key.json> (or --seed to find the default key)');
  const key = JSON.parse(await readFile(keyFile, 'utf8'));
  const entries = Array.isArray(raw) ? raw.map((v) => [v.id, v]) : Object.entries(raw);
  const table = new Map();
  const problems = [];
  const seen = new Set();
  for (const [id, v] of entries) {
    const k = key.findings[id];
    if (!k) {
      problems.push(`${id}: not in the key`);
      continue;
    }
    const verdict = VERDICTS[String(v.verdict ?? '').toLowerCase()];
    if (!verdict) {
      problems.push(`${id}: verdict ${JSON.stringify(v.verdict)} is not TP, debatable or FP`);
      continue;
    }
    seen.add(id);
    const row = table.get(k.rule) ?? { TP: 0, debatable: 0, FP: 0, repos: new Set() };
    row[verdict]++;
    row.repos.add(k.repo);
    table.set(k.rule, row);
  }
  const unjudged = Object.keys(key.findings).filter((id) => !seen.has(id));
  const out = [`seed ${key.seed}, ${key.pool ?? 'recommended'} findings, product ${key.product}, ${seen.size} of ${Object.keys(key.findings).length} findings judged`, ''];
  out.push('| rule | judged | repositories | real | debatable | noise |', '|---|---:|---:|---:|---:|---:|');
  const pct = (x, n) => `${x} (${Math.round((100 * x) / n)} %)`;
  const total = { TP: 0, debatable: 0, FP: 0, repos: new Set() };
  for (const rule of RULES) {
    const row = table.get(rule);
    if (!row) continue;
    const n = row.TP + row.debatable + row.FP;
    out.push(`| ${rule} | ${n} | ${row.repos.size} | ${pct(row.TP, n)} | ${pct(row.debatable, n)} | ${pct(row.FP, n)} |`);
    for (const v of ['TP', 'debatable', 'FP']) total[v] += row[v];
    for (const r of row.repos) total.repos.add(r);
  }
  const n = total.TP + total.debatable + total.FP;
  if (n) out.push(`| **all** | ${n} | ${total.repos.size} | ${pct(total.TP, n)} | ${pct(total.debatable, n)} | ${pct(total.FP, n)} |`);
  if (unjudged.length) out.push('', `not judged: ${unjudged.join(', ')}`);
  if (problems.length) out.push('', ...problems);
  return out.join('\n');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (opts.score) {
    console.log(await score(opts));
    return 0;
  }
  let repos = await loadList(opts.repos, opts.copies);
  if (opts.only) {
    const unknown = [...opts.only].filter((n) => !repos.some((r) => r.name === n));
    if (unknown.length) throw new Error(`--only: no repository named ${unknown.join(', ')} in ${opts.repos}`);
    repos = repos.filter((r) => opts.only.has(r.name));
  }
  let result;
  if (opts.reuse) {
    result = JSON.parse(await readFile(opts.reuse, 'utf8'));
    if (opts.only) result = { ...result, summary: result.summary.filter((s) => opts.only.has(s.name)), findings: result.findings.filter((f) => opts.only.has(f.repo)) };
  } else {
    if (opts.restore) await restoreCopies(repos, opts.restore);
    const problems = await checkCopies(repos);
    if (problems.length > 0) {
      console.error(`real-code bench: ${problems.length} of ${repos.length} repositories are not ready:\n${problems.join('\n')}`);
      return 2;
    }
    const product = await productCommit();
    const started = performance.now();
    const linted = await lintAll(repos, opts);
    result = { product, cli: path.relative(ROOT, opts.cli) || opts.cli, date: new Date().toISOString(), seconds: Math.round((performance.now() - started) / 1000), load: os.loadavg().map((x) => Number(x.toFixed(1))), ...linted };
    if (!opts.count) {
      const file = opts.results ?? path.join(opts.copies, 'results', `${product}.json`);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, `${JSON.stringify(result)}\n`);
      console.error(`findings written to ${file} (${result.seconds} s)`);
    }
  }
  console.log(printSummary(result));
  if (opts.sample !== undefined) console.log(`\n${await writePackets(result, repos, opts)}`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`real-code bench: ${error.message}`);
    process.exitCode = 2;
  },
);
