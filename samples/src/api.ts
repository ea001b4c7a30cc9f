// HTTP API of the ticket service: create tickets, close them in bulk, and tell watchers about
// changes. Each hazard below is a promise nobody looks after; the corrected form follows it.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ max: 10 });
const NOTIFY_URL = process.env.NOTIFY_URL ?? 'https://notify.internal/v1/events';

interface TicketInput {
  subject: string;
  body: string;
}

async function readJson<T>(req: IncomingMessage): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
}

async function notifyWatchers(ticketId: string, event: string): Promise<void> {
  const response = await fetch(NOTIFY_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ticketId, event }),
    signal: AbortSignal.timeout(5_000),
  });
  if (!response.ok) throw new Error(`notify failed for ${ticketId}: ${response.status}`);
}

async function closeTicket(id: string): Promise<void> {
  await pool.query('UPDATE tickets SET status = $1 WHERE id = $2', ['closed', id]);
}

// ---------------------------------------------------------------------------------------------
// Hazard: fire-and-forget notification. The response goes out first, which is the intent, but when
// the notification service is down the rejection is unhandled and the whole API process exits.

export async function createTicket(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const input = await readJson<TicketInput>(req);
  const { rows } = await pool.query('INSERT INTO tickets (subject, body) VALUES ($1, $2) RETURNING id', [
    input.subject,
    input.body,
  ]);
  const id = String(rows[0].id);
  notifyWatchers(id, 'created');
  res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
}

// Corrected: still detached, on purpose, but its failure is logged instead of crashing the process.
export async function createTicketDetached(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const input = await readJson<TicketInput>(req);
  const { rows } = await pool.query('INSERT INTO tickets (subject, body) VALUES ($1, $2) RETURNING id', [
    input.subject,
    input.body,
  ]);
  const id = String(rows[0].id);
  void notifyWatchers(id, 'created').catch((error) => console.error('notify failed', id, error));
  res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
}

// ---------------------------------------------------------------------------------------------
// Hazard: forEach(async …). forEach does not wait: the handler answers "closed" before any UPDATE
// has run, and a failed UPDATE is an unhandled rejection the client never hears about.

export async function closeTickets(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ids = await readJson<string[]>(req);
  ids.forEach(async (id) => {
    await closeTicket(id);
  });
  res.writeHead(200).end('closed');
}

// Corrected: one UPDATE after another, and an error reaches the caller.
export async function closeTicketsInOrder(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ids = await readJson<string[]>(req);
  for (const id of ids) {
    await closeTicket(id);
  }
  res.writeHead(200).end('closed');
}

// ---------------------------------------------------------------------------------------------
// Hazard: an async 'request' listener. http.Server is an EventEmitter and ignores the promise the
// listener returns: a thrown error leaves the request hanging and the rejection unhandled.

export const server = createServer();

server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
  await route(req, res);
});

// Corrected: a synchronous listener that owns the promise and answers 500 when it rejects.
export const guardedServer = createServer((req, res) => {
  route(req, res).catch((error) => {
    console.error('request failed', req.url, error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'POST' && req.url === '/tickets') return createTicketDetached(req, res);
  if (req.method === 'POST' && req.url === '/tickets/close') return closeTicketsInOrder(req, res);
  res.writeHead(404).end();
}
