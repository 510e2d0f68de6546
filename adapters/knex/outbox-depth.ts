import type { Knex } from 'knex';

/**
 * How much push work waits, for the metrics: outbox entries not yet handed over, and deliveries still to be sent
 * (new, or waiting for a retry). Two counts on indexed columns, read when Prometheus scrapes.
 */
export async function pushDepth(knex: Knex): Promise<{ outbox: number; deliveries: number }> {
  const [outbox, deliveries] = await Promise.all([
    knex('push_outbox').whereNull('sent_at').count<{ n: number | string }[]>({ n: '*' }),
    knex('push_deliveries').where({ state: 'pending' }).count<{ n: number | string }[]>({ n: '*' }),
  ]);
  return { outbox: Number(outbox[0]?.n ?? 0), deliveries: Number(deliveries[0]?.n ?? 0) };
}

/** Mails in the mail outbox not yet delivered, given up or dropped: one count on an indexed column, read at each scrape. */
export async function mailDepth(knex: Knex): Promise<number> {
  const rows = await knex('mail_outbox').where({ state: 'pending' }).count<{ n: number | string }[]>({ n: '*' });
  return Number(rows[0]?.n ?? 0);
}
