import type { Knex } from 'knex';
import type { MailOutbox, OutboxMail, QueuedMail } from '../../ports/mail-outbox.js';
import { translated } from './errors.js';
import { iso, toDate } from './rows.js';
import { isPostgres } from './schema-kit.js';
import { dueAt, sendProgressOf, settlementColumns, type SendColumns } from './send-progress.js';

interface MailRow extends SendColumns {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: Date | string;
  expires_at: Date | string | null;
}

const toMail = (r: MailRow): OutboxMail => ({
  id: r.id,
  to: r.to_address,
  subject: r.subject,
  text: r.text_body,
  html: r.html_body,
  expiresAt: r.expires_at === null ? null : toDate(r.expires_at),
  createdAt: toDate(r.created_at),
  ...sendProgressOf(r),
});

const mailRow = (m: QueuedMail): MailRow => ({
  id: m.id,
  to_address: m.to,
  subject: m.subject,
  text_body: m.text,
  html_body: m.html,
  ...dueAt(m.createdAt),
  created_at: iso(m.createdAt),
  expires_at: m.expiresAt === null ? null : iso(m.expiresAt),
});

const byDue = (a: OutboxMail, b: OutboxMail) =>
  a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);

/**
 * The mail outbox on SQLite and Postgres. A claim is one statement: the due rows are picked and marked in the same
 * UPDATE. On Postgres the pick takes the rows' locks and skips rows another claim has locked (FOR UPDATE SKIP
 * LOCKED), so processes sharing the database never wait on each other nor take one mail twice; SQLite has one
 * writer at a time, so its UPDATE is whole before another starts.
 */
export function knexMailOutbox(knex: Knex): MailOutbox {
  const skipLocked = isPostgres(knex) ? ' for update skip locked' : '';
  return translated<MailOutbox>(knex, {
    async enqueue(m) {
      await knex('mail_outbox').insert(mailRow(m));
    },
    async claimDue({ claimId, now, until, limit }) {
      const result = (await knex.raw(
        `update mail_outbox set claim_id = ?, claimed_until = ?
          where id in (select id from mail_outbox
                        where state = 'pending' and next_attempt_at <= ? and (claimed_until is null or claimed_until <= ?)
                        order by next_attempt_at, created_at, id limit ?${skipLocked})
          returning *`,
        [claimId, iso(until), iso(now), iso(now), limit],
      )) as { rows: MailRow[] } | MailRow[];
      return (Array.isArray(result) ? result : result.rows).map(toMail).sort(byDue);
    },
    async renew(id, claimId, until) {
      return (await knex('mail_outbox').where({ id, claim_id: claimId, state: 'pending' }).update({ claimed_until: iso(until) })) === 1;
    },
    async settle(id, claimId, s) {
      // A final mail's bodies go: they may carry single-use links.
      const patch = { ...settlementColumns(s), ...(s.state === 'pending' ? {} : { text_body: '', html_body: '' }) };
      return (await knex('mail_outbox').where({ id, claim_id: claimId, state: 'pending' }).update(patch)) === 1;
    },
    async release(claimId) {
      return knex('mail_outbox').where({ claim_id: claimId, state: 'pending' }).update({ claim_id: null, claimed_until: null });
    },
    async dropPendingTo(to, at, reason) {
      return knex('mail_outbox')
        .where({ state: 'pending' })
        .andWhereRaw('lower(to_address) = ?', [to.toLowerCase()])
        .update({ state: 'dropped', finished_at: iso(at), last_error: reason, claim_id: null, claimed_until: null, text_body: '', html_body: '' });
    },
    async byId(id) {
      const row = (await knex<MailRow>('mail_outbox').where({ id }).first()) as MailRow | undefined;
      return row ? toMail(row) : null;
    },
    async purge(before) {
      return knex('mail_outbox').whereNot({ state: 'pending' }).andWhere('finished_at', '<', iso(before)).delete();
    },
  });
}
