// Nightly ticket report, from before the service moved to ES modules. It shells out to the
// reporting tool and mails the result. The job runs inside the API process, so a blocking shell-out
// freezes the API for as long as the tool takes (minutes on a large month).
'use strict';

const { execSync, execFile } = require('node:child_process');
const { promisify } = require('node:util');

const REPORT_TOOL = process.env.REPORT_TOOL ?? '/usr/local/bin/ticket-report';

// Hazard: execSync inside an async function. Nothing else on the process runs until the tool exits.
async function buildMonthlyReport(month, mailer) {
  const csv = execSync(`${REPORT_TOOL} --month ${month} --format csv`, { encoding: 'utf8' });
  await mailer.send({ subject: `Ticket report ${month}`, attachment: csv });
  return csv.length;
}

// Corrected: the promisified execFile runs the tool in a child process while the loop keeps
// serving requests; arguments are passed as a list, not through a shell.
async function buildMonthlyReportAsync(month, mailer) {
  const { stdout } = await promisify(execFile)(REPORT_TOOL, ['--month', month, '--format', 'csv'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  await mailer.send({ subject: `Ticket report ${month}`, attachment: stdout });
  return stdout.length;
}

module.exports = { buildMonthlyReport, buildMonthlyReportAsync };
