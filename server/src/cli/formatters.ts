import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import type { FileReport } from './report';
import type { Format } from './args';

export interface FormatContext {
  cwd: string;
  version: string;
  /** Docs URL per rule id, for SARIF `helpUri`. */
  docsUrl: (ruleId: string) => string | undefined;
  /** Rule descriptions per rule id, for SARIF `shortDescription`. */
  description: (ruleId: string) => string | undefined;
  color: boolean;
}

export function format(kind: Format, reports: readonly FileReport[], ctx: FormatContext): string {
  switch (kind) {
    case 'json': return `${JSON.stringify(reports.map(toJson))}\n`;
    case 'sarif': return `${JSON.stringify(toSarif(reports, ctx), null, 2)}\n`;
    case 'github': return github(reports, ctx);
    default: return stylish(reports, ctx);
  }
}

function toJson(report: FileReport): object {
  return {
    filePath: report.filePath,
    messages: report.messages.map(({ evidence, ...m }) => ({ ...m, evidence })),
    errorCount: report.errorCount,
    warningCount: report.warningCount,
    fixableErrorCount: report.fixableErrorCount,
    fixableWarningCount: report.fixableWarningCount,
    ...(report.output === undefined ? {} : { output: report.output }),
    ...(report.skipped === undefined ? {} : { skipped: report.skipped }),
  };
}

function stylish(reports: readonly FileReport[], ctx: FormatContext): string {
  const paint = (code: string, text: string): string => (ctx.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  let out = '';
  let errors = 0;
  let warnings = 0;
  let fixable = 0;
  for (const report of reports) {
    if (report.messages.length === 0) continue;
    errors += report.errorCount;
    warnings += report.warningCount;
    fixable += report.fixableErrorCount + report.fixableWarningCount;
    out += `\n${paint('4', report.filePath)}\n`;
    const rows = report.messages.map((m) => [
      `  ${m.line ?? 0}:${m.column ?? 0}`,
      m.severity === 2 || m.fatal ? paint('31', 'error') : paint('33', 'warning'),
      m.message.replace(/\s+/g, ' ').trim(),
      paint('2', m.ruleId ?? ''),
    ]);
    const width = Math.max(...rows.map((r) => (r[0] as string).length));
    for (const row of rows) out += `${(row[0] as string).padEnd(width)}  ${row[1]}  ${row[2]}  ${row[3]}\n`;
  }
  const total = errors + warnings;
  if (total === 0) return '';
  out += `\n${paint(errors ? '31;1' : '33;1', `✖ ${total} problem${total === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'})`)}\n`;
  if (fixable > 0) out += `  ${fixable} fixable with the \`--fix\` option.\n`;
  return out;
}

/** GitHub Actions workflow commands: one annotation per finding on the pull request's diff. */
function github(reports: readonly FileReport[], ctx: FormatContext): string {
  let out = '';
  for (const report of reports) {
    const file = path.relative(ctx.cwd, report.filePath).split(path.sep).join('/');
    for (const m of report.messages) {
      const level = m.severity === 2 || m.fatal ? 'error' : 'warning';
      const props = [
        `file=${escapeProperty(file)}`,
        `line=${m.line ?? 1}`,
        `col=${m.column ?? 1}`,
        ...(m.endLine ? [`endLine=${m.endLine}`] : []),
        ...(m.endColumn ? [`endColumn=${m.endColumn}`] : []),
        `title=${escapeProperty(m.ruleId ?? 'parse error')}`,
      ];
      out += `::${level} ${props.join(',')}::${escapeData(m.message)}\n`;
    }
  }
  return out;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** SARIF 2.1.0 for code scanning: one run, our rules as the driver's rules, evidence as related locations. */
export function toSarif(reports: readonly FileReport[], ctx: FormatContext): Sarif.Log {
  const ruleIds = [...new Set(reports.flatMap((r) => r.messages.map((m) => m.ruleId).filter((id): id is string => !!id)))].sort();
  const rules: Sarif.ReportingDescriptor[] = ruleIds.map((id) => {
    const helpUri = ctx.docsUrl(id);
    const description = ctx.description(id);
    return {
      id,
      ...(description ? { shortDescription: { text: description } } : {}),
      ...(helpUri ? { helpUri } : {}),
    };
  });
  const baseUri = pathToFileURL(ctx.cwd.endsWith(path.sep) ? ctx.cwd : ctx.cwd + path.sep).href;
  const results: Sarif.Result[] = [];
  const artifactFor = (file: string): Sarif.ArtifactLocation => {
    const relative = path.relative(ctx.cwd, file);
    const inside = !relative.startsWith('..') && !path.isAbsolute(relative);
    return inside
      ? { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' }
      : { uri: pathToFileURL(file).href };
  };
  for (const report of reports) {
    const artifactLocation = artifactFor(report.filePath);
    for (const m of report.messages) {
      const region: Sarif.Region = {
        startLine: Math.max(1, m.line ?? 1),
        startColumn: Math.max(1, m.column ?? 1),
        ...(m.endLine ? { endLine: m.endLine } : {}),
        ...(m.endColumn ? { endColumn: m.endColumn } : {}),
      };
      const result: Sarif.Result = {
        level: m.severity === 2 || m.fatal ? 'error' : 'warning',
        message: { text: m.message },
        locations: [{ physicalLocation: { artifactLocation, region } }],
      };
      if (m.ruleId) {
        result.ruleId = m.ruleId;
        result.ruleIndex = ruleIds.indexOf(m.ruleId);
      }
      if (m.context) result.properties = { context: m.context };
      if (m.evidence.length > 0) {
        result.relatedLocations = m.evidence.map((e, id) => ({
          id,
          message: { text: e.message },
          physicalLocation: {
            artifactLocation: e.file ? artifactFor(e.file) : artifactLocation,
            region: { startLine: e.line, startColumn: e.column + 1, endLine: e.endLine, endColumn: e.endColumn + 1 },
          },
        }));
      }
      results.push(result);
    }
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'async-hazards',
            version: ctx.version,
            informationUri: 'https://github.com/async-hazards/async-hazards',
            rules,
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: baseUri } },
        results,
      },
    ],
  };
}
