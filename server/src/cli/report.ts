import type { LintMessage } from '../lint';

/** One linted file as the formatters see it: ESLint's result shape plus the evidence. */
export interface FileReport {
  filePath: string;
  messages: LintMessage[];
  errorCount: number;
  warningCount: number;
  fixableErrorCount: number;
  fixableWarningCount: number;
  /** The fixed text, with --fix-dry-run, when autofixes changed it. */
  output?: string;
  /** Why the file was not linted (too large, binary), if so. */
  skipped?: string;
}

export function countMessages(report: Omit<FileReport, 'errorCount' | 'warningCount' | 'fixableErrorCount' | 'fixableWarningCount'>): FileReport {
  let errorCount = 0;
  let warningCount = 0;
  let fixableErrorCount = 0;
  let fixableWarningCount = 0;
  for (const m of report.messages) {
    if (m.severity === 2 || m.fatal) {
      errorCount++;
      if (m.fix) fixableErrorCount++;
    } else {
      warningCount++;
      if (m.fix) fixableWarningCount++;
    }
  }
  return { ...report, errorCount, warningCount, fixableErrorCount, fixableWarningCount };
}
