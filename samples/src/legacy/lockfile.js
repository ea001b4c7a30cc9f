// Legacy export job, still plain JavaScript (ESM): rewrites the nightly ticket export that the
// reporting team picks up. Two worker processes must never write it at once, so the job holds a
// lock file (proper-lockfile) while it writes. No types here: the rule works from the import.
import { writeFile } from 'node:fs/promises';
import lockfile from 'proper-lockfile';

const EXPORT_PATH = process.env.TICKET_EXPORT_PATH ?? '/var/exports/tickets.csv';

function toCsv(tickets) {
  return tickets.map((t) => `${t.id},${JSON.stringify(t.subject)},${t.state}`).join('\n');
}

// Hazard: a full disk makes writeFile throw and `release()` is skipped. The lock file stays until
// it goes stale, and every other process's export waits on it (or fails) until then.
export async function writeExport(tickets) {
  const release = await lockfile.lock(EXPORT_PATH, { retries: 5, realpath: false });
  await writeFile(EXPORT_PATH, toCsv(tickets));
  await release();
}

// Corrected: the release runs in `finally`, whatever the write does.
export async function writeExportSafely(tickets) {
  const release = await lockfile.lock(EXPORT_PATH, { retries: 5, realpath: false });
  try {
    await writeFile(EXPORT_PATH, toCsv(tickets));
  } finally {
    await release();
  }
}
