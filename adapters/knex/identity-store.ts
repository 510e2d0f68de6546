import type { Knex } from 'knex';
import type { IdentityStore, LinkedIdentity, SignInCode, SignInCodeStore, SignInFlow, SignInFlowStore } from '../../ports/identity-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { iso, rowMapping, toDate } from './rows.js';

const identityMapping = rowMapping<LinkedIdentity>({ issuer: 'as-is', subject: 'as-is', accountId: 'as-is', email: 'as-is', createdAt: 'instant' });

export function knexIdentityStore(knex: Knex): IdentityStore {
  return translated<IdentityStore>(knex, {
    async link(i) {
      try {
        await knex('account_identities').insert(identityMapping.toRow(i));
        return 'linked';
      } catch (err) {
        if (isUniqueViolation(err)) return 'taken';
        throw err;
      }
    },
    async find(issuer, subject) {
      const row = (await knex('account_identities').where({ issuer, subject }).first()) as object | undefined;
      return row ? identityMapping.fromRow(row) : null;
    },
    async identitiesOf(accountId) {
      const rows = (await knex('account_identities').where({ account_id: accountId }).orderBy([{ column: 'created_at' }, { column: 'issuer' }, { column: 'subject' }])) as object[];
      return rows.map((r) => identityMapping.fromRow(r));
    },
    async unlink(accountId, issuer, subject, keepOne) {
      // The account's links are read and one removed in one transaction: on Postgres their row locks make two
      // removals at once take turns, so the second sees what the first left; SQLite has one writer at a time.
      return knex.transaction(async (trx) => {
        const q = trx('account_identities').where({ account_id: accountId }).select('issuer', 'subject');
        const links = (await (knex.client.config.client === 'pg' ? q.forUpdate() : q)) as { issuer: string; subject: string }[];
        if (!links.some((l) => l.issuer === issuer && l.subject === subject)) return 'none';
        if (keepOne && links.length === 1) return 'last';
        await trx('account_identities').where({ account_id: accountId, issuer, subject }).delete();
        return 'unlinked';
      });
    },
  });
}

/**
 * Use and delete in one statement: of several concurrent takers only the one whose delete removed the row gets it
 * back (Postgres makes the later deletes wait for the first and then find nothing; SQLite runs writers one at a
 * time). Knex drops `returning` on SQLite deletes, hence the raw statement; both databases know DELETE RETURNING.
 */
async function takeRow<R>(knex: Knex, table: string, key: string, value: string): Promise<R | null> {
  const result = (await knex.raw('delete from ?? where ?? = ? returning *', [table, key, value])) as R[] | { rows: R[] };
  const rows = Array.isArray(result) ? result : result.rows;
  return rows[0] ?? null;
}

/** take and deleteExpired of a table of rows that live until taken or expired (`expires_at`), keyed by `key`. */
function untilTaken<T, R extends object>(knex: Knex, table: string, key: string, fromRow: (row: R) => T) {
  return {
    async take(value: string): Promise<T | null> {
      const row = await takeRow<R>(knex, table, key, value);
      return row ? fromRow(row) : null;
    },
    async deleteExpired(now: Date): Promise<number> {
      return knex(table).where('expires_at', '<', iso(now)).delete();
    },
  };
}

interface FlowRow {
  state_hash: string;
  provider: string;
  code_verifier: string;
  nonce: string;
  return_url: string;
  app_redirect_uri: string | null;
  app_code_challenge: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

const toFlow = (r: FlowRow): SignInFlow => ({
  stateHash: r.state_hash,
  provider: r.provider,
  codeVerifier: r.code_verifier,
  nonce: r.nonce,
  returnUrl: r.return_url,
  app: r.app_redirect_uri !== null && r.app_code_challenge !== null ? { redirectUri: r.app_redirect_uri, codeChallenge: r.app_code_challenge } : null,
  createdAt: toDate(r.created_at),
  expiresAt: toDate(r.expires_at),
});

export function knexSignInFlowStore(knex: Knex): SignInFlowStore {
  return translated<SignInFlowStore>(knex, {
    async save(f) {
      await knex('sign_in_flows').insert({
        state_hash: f.stateHash,
        provider: f.provider,
        code_verifier: f.codeVerifier,
        nonce: f.nonce,
        return_url: f.returnUrl,
        app_redirect_uri: f.app?.redirectUri ?? null,
        app_code_challenge: f.app?.codeChallenge ?? null,
        created_at: iso(f.createdAt),
        expires_at: iso(f.expiresAt),
      });
    },
    ...untilTaken(knex, 'sign_in_flows', 'state_hash', toFlow),
  });
}

const codeMapping = rowMapping<SignInCode>({ codeHash: 'as-is', accountId: 'as-is', codeChallenge: 'as-is', createdAt: 'instant', expiresAt: 'instant' });

export function knexSignInCodeStore(knex: Knex): SignInCodeStore {
  return translated<SignInCodeStore>(knex, {
    async save(c) {
      await knex('sign_in_codes').insert(codeMapping.toRow(c));
    },
    ...untilTaken(knex, 'sign_in_codes', 'code_hash', (row: object) => codeMapping.fromRow(row)),
  });
}
