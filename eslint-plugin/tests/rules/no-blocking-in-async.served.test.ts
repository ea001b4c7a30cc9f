import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { SERVING } from './blockingCosts';

// Blocking I/O in a synchronous helper that another module runs while serving (fixtures/served-helpers):
// reported where it is, naming the caller, and not again at the call. A route in routes/diskRoutes.ts
// calls `DiskService.usage()`; commands/stats.js's `async execute()` calls `buildReport()`; server.ts
// calls `DiskService.loadLimits()` only at startup.
const disk = fixture('served-helpers/src/services/disk.ts');
const reports = fixture('served-helpers/src/reports.js');
const stats = fixture('served-helpers/src/commands/stats.js');

const diskCode = `import fs from 'node:fs';
import path from 'node:path';

class DiskService {
  private static sizeOf(dir: string): number {
    if (!fs.existsSync(dir)) return 0;
    let size = 0;
    for (const name of fs.readdirSync(dir)) {
      const stats = fs.statSync(path.join(dir, name));
      size += stats.isDirectory() ? this.sizeOf(path.join(dir, name)) : stats.size;
    }
    return size;
  }

  private static freeSpace(dir: string): number {
    return fs.statfsSync(dir).bavail;
  }

  static usage(dir: string): { used: number; free: number } {
    return { used: this.sizeOf(dir), free: this.freeSpace(dir) };
  }

  static loadLimits(file: string): string {
    return fs.readFileSync(file, 'utf8');
  }
}

export default DiskService;
`;

const reportsCode = `const fs = require('fs');

function buildReport(dir) {
  const report = fs.readdirSync(dir).map((name) => fs.readFileSync(\`\${dir}/\${name}\`, 'utf8'));
  fs.writeFileSync(\`\${dir}/report.json\`, JSON.stringify(report));
  return report;
}

function localSummary(dir) {
  return fs.readFileSync(\`\${dir}/summary.txt\`, 'utf8');
}

async function summarize(dir) {
  return localSummary(dir);
}

module.exports = { buildReport, summarize };
`;

const statsCode = `const { buildReport } = require('../reports');

module.exports = {
  name: 'stats',
  async execute(message) {
    const report = buildReport('data');
    await message.reply(\`\${report.length} entries\`);
  },
};
`;

const routeWhere = (name: string, line: number) =>
  `\`${name}\` (line ${line}), which an express route handler calls (diskRoutes.ts line 7) while the process serves`;
const commandWhere = 'async function `execute` calls (stats.js line 6) while the process serves';

createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (recommended: helpers served from other modules)', rule as never, {
  valid: [
    // The command's call defers to the report in reports.js, where the reads are.
    { filename: stats, code: statsCode },
  ],
  invalid: [
    // Through `this.sizeOf()` to the route in another file. The lone `existsSync` and the lone
    // `statfsSync` are one metadata syscall each (strict reports them); `loadLimits` runs only at
    // startup, from server.ts's top level.
    {
      filename: disk,
      code: diskCode,
      errors: [
        { messageId: 'blockingCall', line: 8, column: 24, data: { cost: SERVING, name: 'fs.readdirSync', where: routeWhere('sizeOf', 5) } },
        { messageId: 'blockingCall', line: 9, column: 21, data: { cost: SERVING, name: 'fs.statSync', where: routeWhere('sizeOf', 5) } },
      ],
    },
    // Every read and the write, each once, where the helper makes them. `summarize` is async and
    // the only caller of `localSummary`, in this file: its read is reported in the helper too.
    {
      filename: reports,
      code: reportsCode,
      errors: [
        { messageId: 'blockingCall', line: 4, column: 18, data: { cost: SERVING, name: 'fs.readdirSync', where: `\`buildReport\` (line 3), which ${commandWhere}` } },
        { messageId: 'blockingCall', line: 4, column: 52, data: { cost: SERVING, name: 'fs.readFileSync', where: `\`buildReport\` (line 3), which ${commandWhere}` } },
        { messageId: 'blockingCall', line: 5, column: 3, data: { cost: SERVING, name: 'fs.writeFileSync', where: `\`buildReport\` (line 3), which ${commandWhere}` } },
        { messageId: 'blockingCall', line: 10, column: 10, data: { cost: SERVING, name: 'fs.readFileSync', where: '`localSummary` (line 9), which async function `summarize` calls (line 14) while the process serves' } },
      ],
    },
  ],
});

createRuleTester().run<MessageId, Options>('no-blocking-in-async (strict: helpers served from other modules)', rule as never, {
  valid: [],
  invalid: [
    // Strict counts the single metadata calls too; startup-only `loadLimits` stays quiet even so.
    {
      filename: disk,
      code: diskCode,
      errors: [
        { messageId: 'blockingCall', line: 6, column: 10, data: { cost: SERVING, name: 'fs.existsSync', where: routeWhere('sizeOf', 5) } },
        { messageId: 'blockingCall', line: 8, column: 24 },
        { messageId: 'blockingCall', line: 9, column: 21 },
        { messageId: 'blockingCall', line: 16, column: 12, data: { cost: SERVING, name: 'fs.statfsSync', where: routeWhere('freeSpace', 15) } },
      ],
    },
  ],
});
