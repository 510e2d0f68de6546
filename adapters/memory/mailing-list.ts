import { MAILING_LISTS, type ListedAddress, type ListExit, type ListToken, type MailingList, type MailingListStore } from '../../ports/mailing-list-store.js';
import type { MemoryTables } from './stores.js';

interface TokenRow {
  purpose: ListToken['purpose'];
  addressId: string | null;
  expiresAt: Date | null;
  exit: ListExit | null;
  leftAt: Date | null;
}

/** One list's rows in memory; the dinner-price list's monthly mails work on the same (memory/dinner-price-monthly-mails.ts). */
export interface MemoryListRows {
  readonly list: MailingList;
  readonly addresses: Map<string, ListedAddress>;
  readonly tokens: Map<string, TokenRow>;
  /** Told of every address that goes (as the database's cascades are). */
  readonly onRemoved: ((id: string) => void)[];
}

export const listRows = (list: MailingList): MemoryListRows => ({ list, addresses: new Map(), tokens: new Map(), onRemoved: [] });

/** Issues the tokens of one mail to `addressId`, by the list's rules (as the database's columns allow). */
export function issueTokens(rows: MemoryListRows, addressId: string, tokens: readonly ListToken[]): void {
  const rules = MAILING_LISTS[rows.list];
  for (const t of tokens) {
    if (!rules.purposes.includes(t.purpose)) throw new Error(`the ${rows.list} list issues no ${t.purpose} links`);
    if ((t.expiresAt !== null) !== rules.linksExpire) throw new Error(`the ${rows.list} list's links ${rules.linksExpire ? 'expire' : 'do not expire'}`);
    if (rows.tokens.has(t.tokenHash)) throw new Error(`${rows.list} token hash taken`);
  }
  for (const t of tokens) {
    rows.tokens.set(t.tokenHash, { purpose: t.purpose, addressId, expiresAt: t.expiresAt && new Date(t.expiresAt), exit: null, leftAt: null });
  }
}

/** One double-opt-in list in memory; with `t`, an address of an account goes with the account (the database's cascade). */
export function memoryMailingList(rows: MemoryListRows, t?: MemoryTables): MailingListStore {
  const rules = MAILING_LISTS[rows.list];
  const { addresses, tokens } = rows;
  const copy = (a: ListedAddress): ListedAddress => structuredClone(a);
  // Unspent tokens of a row that goes keep their expiry (and the reason, where the list remembers it) without it.
  const removeWhere = (gone: (a: ListedAddress) => boolean, exit: ListExit, at: Date): number => {
    let n = 0;
    for (const [id, a] of addresses) {
      if (!gone(a)) continue;
      addresses.delete(id);
      for (const row of tokens.values()) {
        if (row.addressId === id) Object.assign(row, { addressId: null }, rules.remembersExit ? { exit, leftAt: new Date(at) } : {});
      }
      for (const removed of rows.onRemoved) removed(id);
      n++;
    }
    return n;
  };
  t?.onAccountDeleted.push((accountId) => removeWhere((a) => a.accountId === accountId, 'unsubscribed', new Date()));
  return {
    async byEmail(email) {
      const a = [...addresses.values()].find((x) => x.email === email);
      return a ? copy(a) : null;
    },
    async add(a, first) {
      if ([...addresses.values()].some((x) => x.email === a.email)) return 'email-taken';
      issueTokens(rows, a.id, first);
      addresses.set(a.id, copy(a));
      return 'added';
    },
    async recordMail(id, mail, mailedNoLaterThan) {
      const a = addresses.get(id);
      if (!a || a.confirmedAt !== null || a.accountId !== null || a.lastMailedAt.getTime() > mailedNoLaterThan.getTime()) return false;
      issueTokens(rows, id, mail.tokens);
      addresses.set(id, { ...a, lastMailedAt: new Date(mail.at), language: mail.language });
      return true;
    },
    async byToken(tokenHash, purpose) {
      const row = tokens.get(tokenHash);
      if (!row || row.purpose !== purpose) return null;
      const a = row.addressId === null ? undefined : addresses.get(row.addressId);
      return {
        address: a ? copy(a) : null,
        expiresAt: row.expiresAt && new Date(row.expiresAt),
        exit: a || !rules.remembersExit ? null : (row.exit ?? 'unsubscribed'),
      };
    },
    async confirm(tokenHash, at) {
      const row = tokens.get(tokenHash);
      const a = row?.purpose === 'confirm' && row.addressId !== null ? addresses.get(row.addressId) : undefined;
      if (!a) return false;
      if (rules.confirmSpendsLinks) for (const [hash, r] of tokens) if (r.addressId === a.id) tokens.delete(hash);
      if (a.confirmedAt === null) addresses.set(a.id, { ...a, confirmedAt: new Date(at) });
      return true;
    },
    async remove(id, exit, at) {
      return removeWhere((a) => a.id === id, exit, at) === 1;
    },
    async removeUnconfirmed(createdBefore, at) {
      return removeWhere((a) => a.confirmedAt === null && a.accountId === null && a.createdAt.getTime() < createdBefore.getTime(), 'expired', at);
    },
    async forgetTokens(before) {
      let n = 0;
      for (const [hash, row] of tokens) {
        const stopped = rules.linksExpire ? row.expiresAt : row.addressId === null ? row.leftAt : null;
        if (stopped !== null && stopped.getTime() < before.getTime() && tokens.delete(hash)) n++;
      }
      return n;
    },
    async linkAccount(email, accountId) {
      if (!rules.linksAccounts) return false;
      const a = [...addresses.values()].find((x) => x.email === email && x.accountId === null);
      if (a) addresses.set(a.id, { ...a, accountId });
      return a !== undefined;
    },
    async removeOfAccount(accountId, email) {
      if (!rules.linksAccounts) return 0;
      return removeWhere((a) => a.accountId === accountId || (email !== null && a.email === email && a.accountId === null), 'unsubscribed', new Date());
    },
  };
}
