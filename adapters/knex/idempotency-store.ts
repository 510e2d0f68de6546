import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { IdempotencyStore } from '../../ports/idempotency-store.js';
import { translated } from './errors.js';
import { iso } from './rows.js';

interface Row {
  request: string;
  fingerprint: string;
  claim_id: string;
  status: number | null;
  content_type: string | null;
  body: string | null;
}

export function knexIdempotencyStore(knex: Knex): IdempotencyStore {
  return translated<IdempotencyStore>(knex, {
    async claim(login, key, { request, fingerprint }, { now, since, abandonedBefore }) {
      const claimId = randomUUID();
      const fresh = { request, fingerprint, created_at: iso(now), claim_id: claimId, status: null, content_type: null, body: null };
      // Each statement is atomic: a first claim inserts; a key held from before `since` (or claimed and never
      // answered before `abandonedBefore`) is taken over by one update; whoever finds its own claim id holds the key.
      await knex('idempotency_keys')
        .insert({ login, key, ...fresh })
        .onConflict(['login', 'key'])
        .ignore();
      await knex('idempotency_keys')
        .where({ login, key })
        .andWhere((q) => q.where('created_at', '<', iso(since)).orWhere((w) => w.whereNull('status').andWhere('created_at', '<', iso(abandonedBefore))))
        .update(fresh);
      const row = (await knex('idempotency_keys').where({ login, key }).first('request', 'fingerprint', 'claim_id', 'status', 'content_type', 'body')) as Row | undefined;
      // The login has ended (its session and keys deleted) under this claim: nothing to hold.
      if (!row) throw new Error('no such login');
      if (row.claim_id === claimId) return { kind: 'claimed' };
      if (row.request !== request || row.fingerprint !== fingerprint) return { kind: 'other-request' };
      if (row.status === null) return { kind: 'in-progress' };
      return { kind: 'answered', answer: { status: Number(row.status), contentType: row.content_type, body: row.body ?? '' } };
    },
    async keep(login, key, answer) {
      await knex('idempotency_keys').where({ login, key }).whereNull('status').update({ status: answer.status, content_type: answer.contentType, body: answer.body });
    },
    async release(login, key) {
      await knex('idempotency_keys').where({ login, key }).whereNull('status').delete();
    },
    async forgetBefore(before) {
      return Number(await knex('idempotency_keys').where('created_at', '<', iso(before)).delete());
    },
  });
}
