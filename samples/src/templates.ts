// Notification templates: after a ticket is summarised, the API emails the requester and renders a
// summary card for the dashboard. Templates live on disk so support staff can edit them without a
// deploy. Reading them synchronously is fine at startup and a stall for every request when it
// happens inside a handler.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

const TEMPLATE_DIR = process.env.TEMPLATE_DIR ?? path.resolve('templates');

export interface SummaryView {
  ticketId: string;
  requester: string;
  summary: string;
}

type TemplateName = 'email' | 'summary';

function fill(template: string, view: SummaryView): string {
  return template
    .replaceAll('{{ticketId}}', view.ticketId)
    .replaceAll('{{requester}}', view.requester)
    .replaceAll('{{summary}}', view.summary);
}

function templatePath(name: TemplateName): string {
  return path.join(TEMPLATE_DIR, `${name}.html`);
}

// ---------------------------------------------------------------------------------------------
// Hazard, direct: the handler reads the email template with readFileSync. On a slow or busy disk
// the read takes tens of milliseconds, and every other request on the process waits that long.

export async function handleEmailPreview(view: SummaryView, res: ServerResponse): Promise<void> {
  const template = readFileSync(templatePath('email'), 'utf8');
  res.setHeader('content-type', 'text/html');
  res.end(fill(template, view));
}

// Hazard, through a helper: `loadTemplates()` looks harmless at the call site, but it reads every
// template synchronously each time a summary card is rendered.

function loadTemplates(): Record<TemplateName, string> {
  return {
    email: readFileSync(templatePath('email'), 'utf8'),
    summary: readFileSync(templatePath('summary'), 'utf8'),
  };
}

export async function handleSummaryCard(req: IncomingMessage, res: ServerResponse, view: SummaryView): Promise<void> {
  const templates = loadTemplates();
  res.setHeader('content-type', 'text/html');
  res.end(fill(req.headers.accept?.includes('text/plain') ? templates.email : templates.summary, view));
}

// ---------------------------------------------------------------------------------------------
// Corrected: the reads go through node:fs/promises, so the loop serves other requests while the
// disk works. The helper is async and awaited, and reads both templates at once.

export async function renderEmail(view: SummaryView): Promise<string> {
  const template = await readFile(templatePath('email'), 'utf8');
  return fill(template, view);
}

async function loadTemplatesAsync(): Promise<Record<TemplateName, string>> {
  const [email, summary] = await Promise.all([
    readFile(templatePath('email'), 'utf8'),
    readFile(templatePath('summary'), 'utf8'),
  ]);
  return { email, summary };
}

export async function renderSummaryCard(view: SummaryView): Promise<string> {
  const templates = await loadTemplatesAsync();
  return fill(templates.summary, view);
}

// Corrected, startup variant: read once when the module loads, before the server takes traffic.
const STARTUP_TEMPLATES: Record<TemplateName, string> = loadTemplates();

export async function renderCachedSummaryCard(view: SummaryView): Promise<string> {
  return fill(STARTUP_TEMPLATES.summary, view);
}
