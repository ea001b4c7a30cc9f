import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { writeFileAtomic } from './atomic';
import type { FileReport } from './report';
import { countMessages } from './report';

/** `{ "<path relative to the file's folder>": { "<rule id>": { "count": n } } }`, ESLint's bulk-suppression shape. */
export type Suppressions = Record<string, Record<string, { count: number }>>;

export async function loadSuppressions(location: string): Promise<Suppressions> {
  let text: string;
  try {
    text = await fs.readFile(location, 'utf8');
  } catch {
    return {};
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${location} is not a suppressions file (expected an object keyed by file)`);
  }
  return parsed as Suppressions;
}

export async function saveSuppressions(location: string, suppressions: Suppressions): Promise<void> {
  const sorted: Suppressions = {};
  for (const file of Object.keys(suppressions).sort()) {
    const rules = suppressions[file] as Record<string, { count: number }>;
    if (Object.keys(rules).length > 0) sorted[file] = rules;
  }
  await writeFileAtomic(location, `${JSON.stringify(sorted, null, 2)}\n`);
}

function key(location: string, filePath: string): string {
  return path.relative(path.dirname(path.resolve(location)), filePath).split(path.sep).join('/');
}

/** Current error counts per file and rule, for the rules asked (all when `rules` is empty). */
export function record(location: string, reports: readonly FileReport[], existing: Suppressions, rules: readonly string[]): Suppressions {
  const next: Suppressions = JSON.parse(JSON.stringify(existing)) as Suppressions;
  for (const report of reports) {
    const file = key(location, report.filePath);
    for (const m of report.messages) {
      if (m.severity !== 2 || !m.ruleId || (rules.length > 0 && !rules.includes(m.ruleId))) continue;
      next[file] ??= {};
      const counts = next[file] as Record<string, { count: number }>;
      counts[m.ruleId] = { count: 0 };
    }
  }
  for (const report of reports) {
    const file = key(location, report.filePath);
    for (const m of report.messages) {
      const entry = m.ruleId ? next[file]?.[m.ruleId] : undefined;
      if (m.severity === 2 && entry && (rules.length === 0 || rules.includes(m.ruleId as string))) entry.count++;
    }
  }
  return next;
}

/**
 * Hides suppressed errors. When a file has more errors of a rule than its recorded count, all of
 * them are shown: something new was added there, and the count alone cannot tell which.
 */
export function apply(location: string, reports: readonly FileReport[], suppressions: Suppressions): FileReport[] {
  return reports.map((report) => {
    const counts = suppressions[key(location, report.filePath)];
    if (!counts) return report;
    const perRule = new Map<string, number>();
    for (const m of report.messages) if (m.severity === 2 && m.ruleId) perRule.set(m.ruleId, (perRule.get(m.ruleId) ?? 0) + 1);
    const messages = report.messages.filter((m) => {
      if (m.severity !== 2 || !m.ruleId) return true;
      const allowed = counts[m.ruleId]?.count ?? 0;
      return (perRule.get(m.ruleId) ?? 0) > allowed;
    });
    return countMessages({ ...report, messages });
  });
}

/** Drops entries whose file or rule no longer has errors, and lowers counts to what is there now. */
export async function prune(location: string, reports: readonly FileReport[], suppressions: Suppressions, linted: ReadonlySet<string>): Promise<Suppressions> {
  const current = record(location, reports, {}, []);
  const next: Suppressions = {};
  for (const [file, rules] of Object.entries(suppressions)) {
    const absolute = path.resolve(path.dirname(path.resolve(location)), file);
    if (!linted.has(absolute)) {
      if (await fs.access(absolute).then(() => true, () => false)) next[file] = rules;
      continue;
    }
    for (const [rule, { count }] of Object.entries(rules)) {
      const now = current[file]?.[rule]?.count ?? 0;
      if (now > 0) {
        next[file] ??= {};
        (next[file] as Record<string, { count: number }>)[rule] = { count: Math.min(count, now) };
      }
    }
  }
  return next;
}
