import type { Knex } from 'knex';
import { createTableOnce, idColumn, instants, optionalInstants, sendProgressColumns } from '../schema-kit.js';

export const name = '0050_mail_outbox';

/**
 * The mail outbox (ports/mail-outbox.ts): every mail the service sends waits here until a mail server accepted it,
 * so a restart, a crash or a mail server that is down for a while loses none. A worker's claim (claim_id,
 * claimed_until) keeps other processes off a mail while it is being handed over; a final mail keeps its address,
 * subject and times for a week, its bodies emptied.
 */
export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'mail_outbox', (t) => {
    idColumn(t);
    t.string('to_address', 320).notNullable();
    t.text('subject').notNullable();
    t.text('text_body').notNullable();
    t.text('html_body').notNullable();
    sendProgressColumns(t);
    instants(t, 'created_at');
    // When the mail's link stops working: past it the mail is dropped, not sent.
    optionalInstants(t, 'expires_at', 'finished_at');
    t.index(['state', 'next_attempt_at']);
    t.index(['claim_id']);
    t.index(['finished_at']);
  });
}
