// Splits the plugin's time into the shared analysis and each rule's own work, for the stats pass
// only (the measured rows run the plugin untouched).
//
// - Every exported function of the built analysis modules (eslint-plugin/dist/analysis/*.js,
//   except ast.js: one-line syntax helpers, counted wherever they are called) is replaced by a
//   timing wrapper. Rules reach them through the modules' export objects at call time, so the
//   wrapper sees every call from a rule; only the outermost call is timed, so analysis calling
//   analysis is not counted twice.
// - Every rule's listeners are wrapped to record which rule is running, so the analysis time spent
//   inside a rule's listeners can be taken out of that rule's ESLint `stats` time: the rule keeps
//   only its own work, and whichever rule happens to ask first for a per-file result (call graph,
//   imports, constructions, locks …) is not charged for computing it. Analysis time outside any
//   rule (none expected) is still in the total.
import { createRequire } from 'node:module';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let depth = 0;
let started = 0;
let current = null;
let total = 0;
let calls = 0;
const byRule = {};
const byModule = {};

function timed(moduleName, fn) {
  return function timedAnalysis(...args) {
    if (depth++ === 0) started = performance.now();
    try {
      return fn.apply(this, args);
    } finally {
      if (--depth === 0) {
        const dt = performance.now() - started;
        total += dt;
        calls += 1;
        byModule[moduleName] = (byModule[moduleName] ?? 0) + dt;
        if (current !== null) byRule[current] = (byRule[current] ?? 0) + dt;
      }
    }
  };
}

export async function instrumentAnalysis() {
  // The build the rows lint with: BENCH_PLUGIN's when set (lint-worker.mjs), else the workspace's.
  const entry = process.env.BENCH_PLUGIN ? path.resolve(process.env.BENCH_PLUGIN) : fileURLToPath(import.meta.resolve('eslint-plugin-async-hazards'));
  const dir = path.join(path.dirname(entry), 'analysis');
  const require = createRequire(entry);
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.js') || name === 'index.js' || name === 'ast.js') continue;
    const exports = require(path.join(dir, name));
    for (const [key, value] of Object.entries(exports)) {
      if (typeof value !== 'function' || /^class\b/.test(Function.prototype.toString.call(value))) continue;
      exports[key] = timed(name.replace(/\.js$/, ''), value);
    }
  }
}

function wrapListener(id, fn) {
  return function ruleListener(...args) {
    const previous = current;
    current = id;
    try {
      return fn.apply(this, args);
    } finally {
      current = previous;
    }
  };
}

export function wrapRules(plugin) {
  const rules = {};
  for (const [id, rule] of Object.entries(plugin.rules)) {
    const ruleId = `async-hazards/${id}`;
    rules[id] = {
      ...rule,
      create(context) {
        // ESLint's stats time create() too, so analysis run from it is taken out as well.
        const listeners = wrapListener(ruleId, rule.create)(context);
        const wrapped = {};
        for (const [selector, fn] of Object.entries(listeners)) wrapped[selector] = wrapListener(ruleId, fn);
        return wrapped;
      },
    };
  }
  return { ...plugin, rules };
}

export function analysisTimes() {
  return { total, calls, byRule, byModule };
}
