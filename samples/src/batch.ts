// Nightly re-summarise job: when the summary prompt changes, every open ticket gets a fresh summary.
// A busy desk has tens of thousands of open tickets, and the summarising provider allows about 50
// requests in flight per API key — a key the live API in api.ts shares. How the job fans out decides
// whether it finishes in minutes or knocks the daytime service into 429s.
import pg from 'pg';
import pLimit from 'p-limit';
import pMap from 'p-map';

const SUMMARIZER_URL = process.env.SUMMARIZER_URL ?? 'https://summarizer.internal/v1/summaries';
/** Little's law: ~60 summaries/s wanted × ~0.8 s per call ≈ 48 in flight, under the key's 50. */
const RESUMMARY_CONCURRENCY = 48;
const BATCH_SIZE = 20;
const PROMPT_VERSION = 7;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });

interface OpenTicket {
  id: string;
  subject: string;
  body: string;
}

async function loadOpenTickets(): Promise<OpenTicket[]> {
  const { rows } = await pool.query<OpenTicket>(
    "SELECT id, subject, body FROM tickets WHERE status = 'open' AND summary_version < $1",
    [PROMPT_VERSION],
  );
  return rows;
}

async function resummarise(ticket: OpenTicket): Promise<void> {
  const response = await fetch(SUMMARIZER_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ subject: ticket.subject, text: ticket.body, sentences: 2 }),
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`summarizer failed for ticket ${ticket.id}: ${response.status}`);
  const { summary } = (await response.json()) as { summary: string };
  await pool.query('UPDATE tickets SET summary = $1, summary_version = $2 WHERE id = $3', [summary, PROMPT_VERSION, ticket.id]);
}

// ❌ Hazard: one request per open ticket, all at once. Twenty thousand calls hit the provider within
// a second; everything over the key's allowance comes back 429, including the live API's own calls,
// and all twenty thousand tickets and pending responses sit in memory until the last one settles.
export async function resummariseAllAtOnce(): Promise<void> {
  const tickets = await loadOpenTickets();
  await Promise.all(tickets.map(async (ticket) => resummarise(ticket)));
}

// ❌ Hazard: chunked batches. Concurrency never passes 20, but each slice waits for its slowest
// call: one 4-second summary holds nineteen finished slots idle, and the next slice cannot start.
export async function resummariseInChunks(): Promise<void> {
  const tickets = await loadOpenTickets();
  for (let i = 0; i < tickets.length; i += BATCH_SIZE) {
    await Promise.all(tickets.slice(i, i + BATCH_SIZE).map((ticket) => resummarise(ticket)));
  }
}

// ✅ Corrected: a sliding window of 48 — a slot takes the next ticket the moment it frees.
export async function resummariseBounded(): Promise<void> {
  const tickets = await loadOpenTickets();
  await pMap(tickets, resummarise, { concurrency: RESUMMARY_CONCURRENCY });
}

// ✅ Corrected, keeping one outcome per ticket: the limiter bounds the calls, allSettled collects
// every result so one malformed ticket does not hide the other nineteen thousand.
const limit = pLimit(RESUMMARY_CONCURRENCY);

export async function resummariseAndReport(): Promise<{ done: number; failed: string[] }> {
  const tickets = await loadOpenTickets();
  const outcomes = await Promise.allSettled(tickets.map((ticket) => limit(() => resummarise(ticket))));
  const failed = tickets.filter((_, i) => outcomes[i]?.status === 'rejected').map((t) => t.id);
  return { done: tickets.length - failed.length, failed };
}
