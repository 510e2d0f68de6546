import type { Knex } from 'knex';
import type { Account, Session } from '../../core/accounts/types.js';
import type { AccountStore, SessionStore } from '../../ports/account-store.js';
import { isUniqueViolation, translated, isForeignKeyViolation } from './errors.js';
import { iso, toBool, toDate } from './rows.js';
import { speedOf } from './speed/index.js';

export interface AccountRow {
  id: string;
  email: string | null;
  email_normalized: string | null;
  email_confirmed: boolean | number;
  display_name: string;
  language: string;
  password_hash: string | null;
  security_stamp: string;
  created_at: Date | string;
  updated_at: Date | string;
}

export const ACCOUNT_COLUMNS = ['id', 'email', 'email_confirmed', 'display_name', 'language', 'password_hash', 'security_stamp', 'created_at', 'updated_at'];

/** Run on every signed-in request, so written out once rather than built by knex each time. */
const SESSION_LOOKUP_SQL =
  `select ${ACCOUNT_COLUMNS.map((c) => `a.${c}`).join(', ')}, s.token_hash, s.security_stamp as session_stamp, ` +
  's.created_at as session_created_at, s.expires_at from sessions s inner join accounts a on a.id = s.account_id ' +
  'where s.token_hash = ? limit 1';

export const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  email: r.email,
  emailConfirmed: toBool(r.email_confirmed),
  displayName: r.display_name,
  language: r.language === 'en' ? 'en' : 'nb',
  passwordHash: r.password_hash,
  securityStamp: r.security_stamp,
  createdAt: toDate(r.created_at),
  updatedAt: toDate(r.updated_at),
});

export function knexAccountStore(knex: Knex): AccountStore {
  const byId = async (id: string) => {
    const row = await knex<AccountRow>('accounts').select(ACCOUNT_COLUMNS).where({ id }).first();
    return row ? toAccount(row as unknown as AccountRow) : null;
  };
  return translated<AccountStore>(knex, {
    async create(a) {
      try {
        await knex('accounts').insert({
          id: a.id,
          email: a.email,
          email_normalized: a.email === null ? null : a.email.toLowerCase(),
          email_confirmed: a.emailConfirmed,
          display_name: a.displayName,
          language: a.language,
          password_hash: a.passwordHash,
          security_stamp: a.securityStamp,
          created_at: iso(a.createdAt),
          updated_at: iso(a.createdAt),
        });
      } catch (err) {
        if (isUniqueViolation(err)) return 'email-taken';
        throw err;
      }
      return { ...a, updatedAt: a.createdAt };
    },
    byId,
    async byEmail(email) {
      const row = await knex<AccountRow>('accounts').select(ACCOUNT_COLUMNS).where({ email_normalized: email.toLowerCase() }).first();
      return row ? toAccount(row as unknown as AccountRow) : null;
    },
    async setDisplayName(id, displayName, at) {
      const n = await knex('accounts').where({ id }).update({ display_name: displayName, updated_at: iso(at) });
      return n === 0 ? null : byId(id);
    },
    async setSecurityStamp(id, stamp, at) {
      await knex('accounts').where({ id }).update({ security_stamp: stamp, updated_at: iso(at) });
    },
    async markEmailConfirmed(id, at) {
      await knex('accounts').where({ id }).update({ email_confirmed: true, updated_at: iso(at) });
    },
    async setPassword(id, passwordHash, securityStamp, at) {
      await knex('accounts')
        .where({ id })
        .update({ password_hash: passwordHash, updated_at: iso(at), ...(securityStamp !== null ? { security_stamp: securityStamp } : {}) });
    },
    async setEmail(id, email, securityStamp, at) {
      try {
        const n = await knex('accounts')
          .where({ id })
          .update({ email, email_normalized: email.toLowerCase(), email_confirmed: true, security_stamp: securityStamp, updated_at: iso(at) });
        return n === 0 ? null : byId(id);
      } catch (err) {
        if (isUniqueViolation(err)) return 'email-taken';
        throw err;
      }
    },
    async delete(id) {
      await knex('accounts').where({ id }).delete();
    },
  });
}

interface SessionJoinRow extends AccountRow {
  token_hash: string;
  session_stamp: string;
  session_created_at: Date | string;
  expires_at: Date | string;
}

async function lookupSession(knex: Knex, tokenHash: string): Promise<{ account: Account; session: Session } | null> {
  const [row] = await speedOf(knex).fixedRows<SessionJoinRow>(SESSION_LOOKUP_SQL, [tokenHash]);
  if (!row) return null;
  return {
    account: toAccount(row),
    session: {
      tokenHash: row.token_hash,
      accountId: row.id,
      securityStamp: row.session_stamp,
      createdAt: toDate(row.session_created_at),
      expiresAt: toDate(row.expires_at),
    },
  };
}

export function knexSessionStore(knex: Knex): SessionStore {
  return translated<SessionStore>(knex, {
    async create(s: Session) {
      try {
        await knex('sessions').insert({
          token_hash: s.tokenHash,
          account_id: s.accountId,
          security_stamp: s.securityStamp,
          created_at: iso(s.createdAt),
          expires_at: iso(s.expiresAt),
        });
        return true;
      } catch (err) {
        // The account went (deleted) between its check and this insert.
        if (isForeignKeyViolation(err)) return false;
        throw err;
      }
    },
    lookup(tokenHash) {
      // On every signed-in request: the session and its account together, kept by the read cache (not a miss).
      return speedOf(knex).cachedRead(`session:${tokenHash}`, () => lookupSession(knex, tokenHash), (found) => found !== null);
    },
    async extend(tokenHash, expiresAt) {
      await knex('sessions').where({ token_hash: tokenHash }).update({ expires_at: iso(expiresAt) });
    },
    async setSecurityStamp(tokenHash, stamp) {
      await knex('sessions').where({ token_hash: tokenHash }).update({ security_stamp: stamp });
    },
    async delete(tokenHash) {
      await knex('sessions').where({ token_hash: tokenHash }).delete();
    },
    async deleteExpired(now) {
      return knex('sessions').where('expires_at', '<', iso(now)).delete();
    },
  }, ['lookup']);
}
