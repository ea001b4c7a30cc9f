// Legacy notifier, still plain JavaScript (ESM): appends every outgoing notification to an audit
// log next to sending it. No types here, so the rule relies on what it can see in the file.
import { appendFile } from 'node:fs/promises';

const AUDIT_LOG = process.env.NOTIFY_AUDIT_LOG ?? '/var/log/tickets/notify.log';
const WEBHOOK_URL = process.env.NOTIFY_WEBHOOK_URL ?? 'https://hooks.internal/tickets';

// Hazard: neither the audit write nor the webhook call is awaited. A full disk or a webhook outage
// becomes an unhandled rejection, which ends the process (Node's default since version 15).
export function notify(ticketId, message) {
  appendFile(AUDIT_LOG, `${new Date().toISOString()} ${ticketId} ${message}\n`);
  fetch(WEBHOOK_URL, { method: 'POST', body: JSON.stringify({ ticketId, message }) }).then((res) => res.status);
}

// Corrected: the caller waits for both and sees their errors.
export async function notifyAndWait(ticketId, message) {
  await appendFile(AUDIT_LOG, `${new Date().toISOString()} ${ticketId} ${message}\n`);
  const res = await fetch(WEBHOOK_URL, { method: 'POST', body: JSON.stringify({ ticketId, message }) });
  return res.status;
}
