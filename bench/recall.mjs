// Recall and precision on hand-labelled real files. The collection lives outside the repository
// (real code is not ours to keep): a folder with `files/<owner>__<repo>/…`, a MANIFEST.md naming
// repository@commit:path for each file, and `labels.json`, an array of
// `{ file, line, rule, label: 'hazard' | 'near-miss', why }` written blind to our output.
//   node bench/recall.mjs [collection-dir] [--strict] [--list]
// Default collection: ../corpora/realset next to the repository. Lints `files/` with the built
// CLI (`npm run build` first) and matches each finding to a label of the same rule and file within
// two lines. A finding on a near-miss line is a false positive; a finding on an unlabelled line is
// counted apart: the labels are not exhaustive, so those need a blind look (--list prints them)
// before they count either way. Blind verdicts on such lines go in the collection's `judged.json`
// (`{ rule, file, line, verdict: 'TP' | 'debatable' | 'FP' }`): TP and FP then count as such, and
// debatable ones count on neither side; what is still unjudged is shown apart.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dir = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(ROOT, '..', 'corpora', 'realset'));
const strict = args.includes('--strict');
const CLI = path.join(ROOT, 'server', 'dist', 'cli.js');
const SLACK = 2;

if (!existsSync(path.join(dir, 'labels.json'))) {
  console.error(`no labelled collection at ${dir}: expected labels.json and files/ (see the comment at the top of this script)`);
  process.exit(2);
}
if (!existsSync(CLI)) {
  console.error('server/dist/cli.js is missing: run `npm run build` first');
  process.exit(2);
}

const labels = JSON.parse(readFileSync(path.join(dir, 'labels.json'), 'utf8'));
const judgedFile = path.join(dir, 'judged.json');
const judged = existsSync(judgedFile) ? JSON.parse(readFileSync(judgedFile, 'utf8')) : [];
const filesDir = path.join(dir, 'files');
let out;
try {
  out = execFileSync(process.execPath, [CLI, '.', '--format', 'json', ...(strict ? ['--strict'] : [])], { cwd: filesDir, maxBuffer: 1 << 28, encoding: 'utf8' });
} catch (error) {
  // Exit 1 means findings; the JSON is on stdout all the same.
  if (error.status !== 1) throw error;
  out = error.stdout;
}
const findings = [];
for (const report of JSON.parse(out)) {
  const file = path.relative(filesDir, report.filePath).split(path.sep).join('/');
  for (const m of report.messages) {
    if (!m.ruleId?.startsWith('async-hazards/')) continue;
    findings.push({ file, line: m.line, rule: m.ruleId.slice('async-hazards/'.length), message: m.message });
  }
}

const rules = [...new Set(labels.map((l) => l.rule))].sort();
const near = (f, l) => f.file === l.file && f.rule === l.rule && Math.abs(f.line - l.line) <= SLACK;
const rows = [];
const unjudged = [];
const missed = [];
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
    else if (nearMisses.some((n) => near(f, n)) || verdict === 'FP') fp++;
    else if (verdict === 'debatable') debatable++;
    else {
      other++;
      unjudged.push(f);
    }
  }
  rows.push({ rule, hazards: hazards.length, found: found.length, tp, fp, debatable, unjudged: other });
}
const pct = (n, d) => (d === 0 ? '   —' : (n / d).toFixed(2));
console.log(`${strict ? 'strict' : 'recommended'} on ${dir} (${labels.length} labels, ${findings.length} findings)`);
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
  console.log('\nfindings on unlabelled lines:');
  for (const f of unjudged) console.log(`  ${f.rule} ${f.file}:${f.line}`);
}
