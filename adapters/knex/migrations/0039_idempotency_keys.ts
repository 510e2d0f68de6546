import type { Knex } from 'knex';
import { createTableOnce, instants } from '../schema-kit.js';

export const name = '0039_idempotency_keys';

/**
 * The Idempotency-Key a client sent with a state-changing request, per login (the session, whose end takes its keys
 * along) and key: the request it was first used for, and the answer once there is one (ports/idempotency-store.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'idempotency_keys', (t) => {
    t.string('login', 64).notNullable().references('token_hash').inTable('sessions').onDelete('CASCADE');
    t.string('key', 255).notNullable();
    // Method and path, and a digest of the body: the request the key belongs to.
    t.string('request', 2100).notNullable();
    t.string('fingerprint', 64).notNullable();
    instants(t, 'created_at');
    // Which claim holds the key: the claimer that finds its own id here after claiming has it.
    t.string('claim_id', 36).notNullable();
    // Null while the request is being answered.
    t.integer('status').nullable();
    t.string('content_type', 200).nullable();
    t.text('body').nullable();
    t.primary(['login', 'key']);
    // The hourly forgetting of keys older than a day.
    t.index(['created_at']);
  });
}
