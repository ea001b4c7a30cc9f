// Job worker: claims queued summary jobs, summarises the ticket and stores the summary. Claiming is
// serialised by a process-wide lock (two claims racing would both take the same row), and each job
// checks a client out of the Postgres pool for its transaction. Both are taken by hand, so both
// must be given back however the job ends.
import { Mutex } from 'async-mutex';
import pg from 'pg';
import type { Ticket } from './summarizer.js';
import { summarizeTicketFixed } from './summarizer.js';

const pool = new pg.Pool({ max: 4 });
const claimLock = new Mutex();

interface JobRow {
  id: string;
  ticket_id: string;
}

// Hazard: if the claim query throws (a dropped connection, a lock timeout), `release()` is never
// reached. The lock stays held and every later claim waits forever: the worker goes quiet with
// jobs stuck in 'claimed' and nothing in the logs.
export async function claimNextJob(): Promise<JobRow | undefined> {
  const release = await claimLock.acquire();
  const { rows } = await pool.query<JobRow>(
    "UPDATE jobs SET state = 'claimed' WHERE id = (SELECT id FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1) RETURNING id, ticket_id",
  );
  release();
  return rows[0];
}

// Corrected: the release is in `finally`, so an exception still frees the lock.
export async function claimNextJobSafely(): Promise<JobRow | undefined> {
  const release = await claimLock.acquire();
  try {
    const { rows } = await pool.query<JobRow>(
      "UPDATE jobs SET state = 'claimed' WHERE id = (SELECT id FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1) RETURNING id, ticket_id",
    );
    return rows[0];
  } finally {
    release();
  }
}

// Hazard: the client is released only at the very end. A failing lookup query, the early return
// for a deleted ticket and a failed summary (the catch rethrows) all skip the release. With four
// connections in the pool, four such jobs leave every later `pool.connect()` waiting forever.
export async function completeJob(job: JobRow): Promise<void> {
  const client = await pool.connect();
  const { rows } = await client.query<Ticket>('SELECT id, subject, body FROM tickets WHERE id = $1', [job.ticket_id]);
  const ticket = rows[0];
  if (!ticket) {
    return;
  }
  try {
    await client.query('BEGIN');
    const summary = await summarizeTicketFixed(ticket);
    await client.query('UPDATE tickets SET summary = $1, summarized_at = now() WHERE id = $2', [summary, ticket.id]);
    await client.query("UPDATE jobs SET state = 'done' WHERE id = $1", [job.id]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
  client.release();
}

// Corrected: one `try` from the first query on, the release in `finally`. The summary is computed
// before the transaction opens, so the connection is not held across the slow API call either.
export async function completeJobSafely(job: JobRow): Promise<void> {
  const { rows } = await pool.query<Ticket>('SELECT id, subject, body FROM tickets WHERE id = $1', [job.ticket_id]);
  const ticket = rows[0];
  if (!ticket) {
    return;
  }
  const summary = await summarizeTicketFixed(ticket);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE tickets SET summary = $1, summarized_at = now() WHERE id = $2', [summary, ticket.id]);
    await client.query("UPDATE jobs SET state = 'done' WHERE id = $1", [job.id]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}
