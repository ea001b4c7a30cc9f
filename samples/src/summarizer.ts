// Summariser worker: every call to the summarising API goes through one p-limit limiter sized to
// the provider's concurrency allowance. The provider answers 429 when we are over its rate, and
// the worker retries with backoff. Where the retry sits relative to the limiter decides whether a
// backoff sleeps in a slot.
import pLimit from 'p-limit';
import pRetry, { AbortError } from 'p-retry';
import { setTimeout as sleep } from 'node:timers/promises';

const SUMMARY_CONCURRENCY = 8;
const SUMMARIZER_URL = process.env.SUMMARIZER_URL ?? 'https://summarizer.internal/v1/summaries';

const limit = pLimit(SUMMARY_CONCURRENCY);

export interface Ticket {
  id: string;
  subject: string;
  body: string;
}

class RateLimited extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`summarizer rate limited; retry after ${retryAfterMs} ms`);
  }
}

async function requestSummary(ticket: Ticket): Promise<string> {
  const response = await fetch(SUMMARIZER_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ subject: ticket.subject, text: ticket.body, sentences: 2 }),
    signal: AbortSignal.timeout(30_000),
  });
  if (response.status === 429) {
    throw new RateLimited(Number(response.headers.get('retry-after') ?? '1') * 1000);
  }
  if (response.status >= 400 && response.status < 500) {
    throw new AbortError(`summarizer rejected ticket ${ticket.id}: ${response.status}`);
  }
  if (!response.ok) throw new Error(`summarizer failed: ${response.status}`);
  const payload = (await response.json()) as { summary: string };
  return payload.summary;
}

// ---------------------------------------------------------------------------------------------
// Hazard: the retry runs inside the slot. When the provider starts answering 429, each rate-limited
// ticket keeps its slot through every backoff: with most of the 8 slots sleeping, the limiter
// admits almost nothing while the provider is already willing to take more.

export function summarizeTicket(ticket: Ticket): Promise<string> {
  return limit(() =>
    pRetry(() => requestSummary(ticket), {
      retries: 3,
      minTimeout: 1000,
      factor: 4,
    }),
  );
}

// Hazard, hand-written: honouring Retry-After inside the permit sleeps for as long as the provider
// asks, still holding the slot.
export async function summarizeTicketHonouringRetryAfter(ticket: Ticket): Promise<string> {
  return limit(async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await requestSummary(ticket);
      } catch (error) {
        if (!(error instanceof RateLimited) || attempt === 4) throw error;
        await sleep(error.retryAfterMs);
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Corrected: each attempt takes its own slot and gives it back before the backoff, so sleeping
// tickets hold nothing and the other slots keep calling.

export function summarizeTicketFixed(ticket: Ticket): Promise<string> {
  return pRetry(() => limit(() => requestSummary(ticket)), {
    retries: 3,
    minTimeout: 1000,
    factor: 4,
  });
}

export async function summarizeTicketHonouringRetryAfterFixed(ticket: Ticket): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await limit(() => requestSummary(ticket));
    } catch (error) {
      if (!(error instanceof RateLimited) || attempt === 4) throw error;
      await sleep(error.retryAfterMs);
    }
  }
}
