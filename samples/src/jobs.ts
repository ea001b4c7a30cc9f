// Job queue table: the scheduler enqueues summary jobs, the worker picks them up. Enqueuing is
// async (an INSERT), which only type information can see from another file.
import pg from 'pg';

const pool = new pg.Pool({ max: 4 });

/** Queues a summary job for a ticket; resolves once the job row is written. */
export async function enqueueSummary(ticketId: string): Promise<void> {
  await pool.query(
    "INSERT INTO jobs (kind, ticket_id, state) VALUES ('summary', $1, 'queued') ON CONFLICT DO NOTHING",
    [ticketId],
  );
}

/** Tickets updated since their last summary. */
export async function staleTicketIds(limit: number): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    'SELECT id FROM tickets WHERE updated_at > summarized_at ORDER BY updated_at LIMIT $1',
    [limit],
  );
  return rows.map((row) => row.id);
}
