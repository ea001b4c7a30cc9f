// What the helper-chain analysis of no-blocking-in-async costs on a large file: lints one generated
// file (thousands of lines, hundreds of sync helpers called from async handlers) with ESLint's
// Linter and only that rule, then with only core `no-debugger` (parse + traversal, almost no rule
// work), in the same process, and prints the medians and their ratio. ESLint's own `stats` split
// each run into parse and rule time, which stays meaningful on a busy machine where wall-clock
// ratios wander.
// Run after `npm run build`: node bench/helper-chain-cost.mjs [groups] [runs]
import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import plugin from 'eslint-plugin-async-hazards';

const groups = Number(process.argv[2] ?? 250);
const runs = Number(process.argv[3] ?? 5);
const WARMUP = 2;
const ROUNDS = 3;

/** One group: a three-deep chain of sync helpers, a pure helper, and async handlers calling them. */
function group(i) {
  const blocking = i % 4 === 0;
  return `
function parse${i}(text: string): string[] {
  return text.split('\\n').filter((line) => line.length > ${i % 7});
}
function read${i}(p: string): string {
  return ${blocking ? `readFileSync(p, 'utf8')` : `p.repeat(${(i % 3) + 1})`};
}
function load${i}(p: string): string[] {
  return parse${i}(read${i}(p));
}
const helpers${i} = {
  total(values: number[]): number { return values.reduce((a, b) => a + b, ${i}); },
};
export async function handle${i}(p: string): Promise<number> {
  const lines = load${i}(p);
  const extra = await readFile(p, 'utf8');
  for (const line of lines) if (line === extra) return helpers${i}.total([line.length]);
  return helpers${i}.total(lines.map((l) => l.length));
}
export async function poll${i}(ready: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + ${100 + i};
  while (Date.now() < end) {
    if (await ready()) return;
  }
}
`;
}

function source() {
  const parts = [
    `import { readFileSync } from 'node:fs';`,
    `import { readFile } from 'node:fs/promises';`,
  ];
  for (let i = 0; i < groups; i++) parts.push(group(i));
  return parts.join('\n');
}

const code = source();
const lines = code.split('\n').length;
const files = ['**/*.ts'];
const base = { files, languageOptions: { parser: tsParser } };
const configs = {
  'no-blocking-in-async': [
    { ...base, plugins: { 'async-hazards': plugin }, rules: { 'async-hazards/no-blocking-in-async': 'error' } },
  ],
  'no-blocking-in-async (checkHelpers: false)': [
    {
      ...base,
      plugins: { 'async-hazards': plugin },
      rules: { 'async-hazards/no-blocking-in-async': ['error', { checkHelpers: false }] },
    },
  ],
  'no-debugger': [{ ...base, rules: { 'no-debugger': 'error' } }],
};

const linter = new Linter({ configType: 'flat' });
const RULE = 'async-hazards/no-blocking-in-async';

/** One configuration, `runs` timed runs after a warm-up: wall-clock, parse and rule medians (ESLint's own stats). */
function measure(config) {
  let messages = [];
  const wall = [];
  const parse = [];
  const rule = [];
  for (let r = 0; r < WARMUP + runs; r++) {
    const start = process.hrtime.bigint();
    // verifyAndFix with fix: false is one plain verify; it is the entry point that records stats.
    messages = linter.verifyAndFix(code, config, { filename: 'large.ts', stats: true, fix: false }).messages;
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r < WARMUP) continue;
    const pass = linter.getTimes().passes[0];
    wall.push(ms);
    parse.push(pass?.parse?.total ?? NaN);
    rule.push(pass?.rules?.[RULE]?.total ?? 0);
  }
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new Error(`parse error: ${fatal.message}`);
  return { wall, parse, rule, findings: messages.length };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Interleave the configurations so drift (JIT, GC, other load on the machine) hits them alike.
const results = Object.fromEntries(Object.keys(configs).map((name) => [name, { wall: [], parse: [], rule: [], findings: 0 }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, config] of Object.entries(configs)) {
    const m = measure(config);
    const into = results[name];
    into.wall.push(...m.wall);
    into.parse.push(...m.parse);
    into.rule.push(...m.rule);
    into.findings = m.findings;
  }
}

const baseline = median(results['no-debugger'].wall);
console.log(`generated file: ${lines} lines, ${groups * 4} sync helpers, ${groups * 2} async functions`);
console.log(`${WARMUP} warm-up + ${runs} timed runs per configuration and round, ${ROUNDS} interleaved rounds; medians:`);
for (const [name, r] of Object.entries(results)) {
  const wall = median(r.wall);
  const ruleShare = (median(r.rule) / median(r.parse)) * 100;
  console.log(
    `  ${name.padEnd(44)} verify ${wall.toFixed(1).padStart(8)} ms  ×${(wall / baseline).toFixed(3)}` +
      `  parse ${median(r.parse).toFixed(1).padStart(7)} ms  rule ${median(r.rule).toFixed(1).padStart(6)} ms` +
      ` (${ruleShare.toFixed(1)}% of parse)  ${r.findings} findings`,
  );
}
const full = results['no-blocking-in-async'];
const direct = results['no-blocking-in-async (checkHelpers: false)'];
console.log(`ratio no-blocking-in-async / no-debugger (verify wall-clock): ${(median(full.wall) / baseline).toFixed(3)}`);
console.log(
  `helper analysis alone (rule time with helpers − without): ${(median(full.rule) - median(direct.rule)).toFixed(1)} ms` +
    ` = ${(((median(full.rule) - median(direct.rule)) / median(full.parse)) * 100).toFixed(1)}% of parse time`,
);
