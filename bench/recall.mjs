// Recall and precision on hand-labelled real files. The labels and the manifest are kept here, in
// bench/realset/: MANIFEST.md names repository@commit:path for each file (`… as <stored path>` when
// it is stored elsewhere), and `labels.json` is an array of
// `{ file, line, rule, label: 'hazard' | 'near-miss', why }` written blind to our output. The files
// themselves live outside the repository (real code is not ours to keep), in
// `files/<owner>__<repo>/…` of a folder (default ../corpora/realset next to the repository;
// `--files <dir>` names the files folder itself); `--restore <mirrors>` first writes each missing
// file from a git mirror at <mirrors>/<owner>+<name>/repo (bare, or a checkout's .git) or
// <mirrors>/<owner>/<name>.git.
//   node bench/recall.mjs [collection-dir] [--files <dir>] [--restore <mirrors>] [--strict] [--list]
// A collection-dir given holds its own labels.json (and judged.json) and files/. Lints the files
// folder with the built CLI (`npm run build` first) and matches each finding to a label of the same
// rule and file within two lines of the finding or of one of its related locations (a hazard label
// on the release a throw skips matches the finding at the acquire). A finding whose own line is a
// near miss is a false positive; a finding on an unlabelled line is counted apart: the labels are
// not exhaustive, so those need a blind look (--list prints them, with the misses and the false
// positives) before they count either way. Blind verdicts on such lines go in `judged.json`
// (`{ rule, file, line, verdict: 'TP' | 'debatable' | 'FP' }`): TP and FP then count as such, and
// debatable ones count on neither side; what is still unjudged is shown apart.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const valueOf = (flag) => {
  const i = args.indexOf(flag);
  if (i === -1) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) {
    console.error(`${flag} needs a value`);
    process.exit(2);
  }
  args.splice(i, 2);
  return path.resolve(v);
};
const filesFlag = valueOf('--files');
const mirrors = valueOf('--restore');
const given = args.find((a) => !a.startsWith('--'));
const metaDir = given ? path.resolve(given) : path.join(ROOT, 'bench', 'realset');
const filesDir = filesFlag ?? (given ? path.join(metaDir, 'files') : path.join(ROOT, '..', 'corpora', 'realset', 'files'));
const strict = args.includes('--strict');
const CLI = path.join(ROOT, 'server', 'dist', 'cli.js');
const SLACK = 2;

if (!existsSync(path.join(metaDir, 'labels.json'))) {
  console.error(`no labelled collection at ${metaDir}: expected labels.json (see the comment at the top of this script)`);
  process.exit(2);
}
if (mirrors) restore(path.join(metaDir, 'MANIFEST.md'), filesDir, mirrors);
if (!existsSync(filesDir)) {
  console.error(`no files at ${filesDir}: pass --restore <mirrors> to write them from git mirrors, or --files <dir>`);
  process.exit(2);
}
if (!existsSync(CLI)) {
  console.error('server/dist/cli.js is missing: run `npm run build` first');
  process.exit(2);
}

/** Where a mirror of owner/name may be: a bare one, or the .git folder of a checkout. */
function mirrorCandidates(root, owner, name) {
  const base = path.join(root, `${owner}+${name}`, 'repo');
  return [path.join(base, '.git'), base, path.join(root, owner, `${name}.git`)];
}

/** Writes each file the manifest names and the files folder lacks, from a mirror holding its commit. */
function restore(manifestFile, into, mirrorRoot) {
  const entry = /([\w.-]+)\/([\w.-]+)@([0-9a-f]{40}):(\S+?)(?:`|\s|$)(?:\s*as\s+`?([^`\s]+))?/;
  let written = 0;
  const unavailable = new Set();
  for (const line of readFileSync(manifestFile, 'utf8').split('\n')) {
    const m = entry.exec(line);
    if (!m) continue;
    const [, owner, name, commit, source, storedAs] = m;
    const stored = path.join(into, storedAs ?? `${owner}__${name}/${source}`);
    if (existsSync(stored)) continue;
    const gitDir = mirrorCandidates(mirrorRoot, owner, name).find((d) => existsSync(d));
    if (!gitDir) {
      unavailable.add(`${owner}/${name}@${commit}`);
      continue;
    }
    let text;
    try {
      text = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${source}`], { maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      // A mirror that is not a whole repository, or lacks this commit.
      unavailable.add(`${owner}/${name}@${commit}`);
      continue;
    }
    mkdirSync(path.dirname(stored), { recursive: true });
    writeFileSync(stored, text);
    written++;
  }
  console.error(`restored ${written} files into ${into}`);
  if (unavailable.size) console.error(`no mirror for: ${[...unavailable].join(', ')} (fetch them, then run again)`);
}

// A label on a file that could not be restored (its mirror is too big to fetch, or gone) can be
// neither found nor missed: it is set aside and counted in the heading.
const allLabels = JSON.parse(readFileSync(path.join(metaDir, 'labels.json'), 'utf8'));
const labels = allLabels.filter((l) => existsSync(path.join(filesDir, l.file)));
const absent = [...new Set(allLabels.filter((l) => !labels.includes(l)).map((l) => l.file))];
const judgedFile = path.join(metaDir, 'judged.json');
const judged = existsSync(judgedFile) ? JSON.parse(readFileSync(judgedFile, 'utf8')) : [];
let out;
try {
  out = execFileSync(process.execPath, [CLI, '.', '--format', 'sarif', ...(strict ? ['--strict'] : [])], { cwd: filesDir, maxBuffer: 1 << 28, encoding: 'utf8' });
} catch (error) {
  // Exit 1 means findings; the SARIF is on stdout all the same.
  if (error.status !== 1) throw error;
  out = error.stdout;
}
// SARIF rather than ESLint's JSON: a finding's related locations (where a lock was acquired, the
// line that can throw, the release a throw skips) are part of what it says, and a label may sit on
// any of them: a labeller marks the release outside `finally`, the rule reports at the acquire.
const findings = [];
for (const result of JSON.parse(out).runs[0].results) {
  if (!result.ruleId?.startsWith('async-hazards/')) continue;
  const at = result.locations[0].physicalLocation;
  const lines = [at.region.startLine];
  for (const related of result.relatedLocations ?? []) {
    if (related.physicalLocation?.artifactLocation?.uri === at.artifactLocation.uri) lines.push(related.physicalLocation.region.startLine);
  }
  findings.push({ file: decodeURIComponent(at.artifactLocation.uri), line: lines[0], lines, rule: result.ruleId.slice('async-hazards/'.length), message: result.message.text });
}

const rules = [...new Set(labels.map((l) => l.rule))].sort();
const close = (line, l) => Math.abs(line - l.line) <= SLACK;
/** The finding's own line or one of its related locations is the label's (hazards). */
const near = (f, l) => f.file === l.file && f.rule === l.rule && f.lines.some((line) => close(line, l));
/** A near miss is one only where the finding itself points. */
const at = (f, l) => f.file === l.file && f.rule === l.rule && close(f.line, l);
const rows = [];
const unjudged = [];
const missed = [];
const falsePositives = [];
for (const rule of rules) {
  const hazards = labels.filter((l) => l.rule === rule && l.label === 'hazard');
  const nearMisses = labels.filter((l) => l.rule === rule && l.label === 'near-miss');
  const mine = findings.filter((f) => f.rule === rule);
  const found = hazards.filter((h) => mine.some((f) => near(f, h)));
  for (const h of hazards) if (!found.includes(h)) missed.push(h);
  let tp = 0;
  let fp = 0;
  let debatable = 0;
  let other = 0;
  for (const f of mine) {
    const verdict = judged.find((j) => j.rule === f.rule && j.file === f.file && j.line === f.line)?.verdict;
    if (hazards.some((h) => near(f, h)) || verdict === 'TP') tp++;
    else if (nearMisses.some((n) => at(f, n)) || verdict === 'FP') {
      fp++;
      falsePositives.push(f);
    }
    else if (verdict === 'debatable') debatable++;
    else {
      other++;
      unjudged.push(f);
    }
  }
  rows.push({ rule, hazards: hazards.length, found: found.length, tp, fp, debatable, unjudged: other });
}
const pct = (n, d) => (d === 0 ? '   —' : (n / d).toFixed(2));
console.log(`${strict ? 'strict' : 'recommended'} on ${metaDir} (${labels.length} labels, ${findings.length} findings)`);
if (absent.length) console.log(`left out: ${allLabels.length - labels.length} labels on ${absent.length} files not restored (${absent.join(', ')})`);
console.log('rule                        hazards found recall   tp   fp debatable unjudged precision precision(unjudged=fp)');
const line = (r) =>
  `${r.rule.padEnd(27)} ${String(r.hazards).padStart(7)} ${String(r.found).padStart(5)} ${pct(r.found, r.hazards).padStart(6)} ${String(r.tp).padStart(4)} ${String(r.fp).padStart(4)} ${String(r.debatable).padStart(9)} ${String(r.unjudged).padStart(8)} ${pct(r.tp, r.tp + r.fp).padStart(9)} ${pct(r.tp, r.tp + r.fp + r.unjudged).padStart(22)}`;
const sum = { rule: 'all', hazards: 0, found: 0, tp: 0, fp: 0, debatable: 0, unjudged: 0 };
for (const r of rows) {
  console.log(line(r));
  for (const k of Object.keys(sum)) if (k !== 'rule') sum[k] += r[k];
}
console.log(line(sum));
if (args.includes('--list')) {
  console.log('\nmissed hazards:');
  for (const h of missed) console.log(`  ${h.rule} ${h.file}:${h.line}  ${h.why}`);
  console.log('\nfindings on near-miss lines (or judged FP):');
  for (const f of falsePositives) console.log(`  ${f.rule} ${f.file}:${f.line}`);
  console.log('\nfindings on unlabelled lines:');
  for (const f of unjudged) console.log(`  ${f.rule} ${f.file}:${f.line}`);
}
