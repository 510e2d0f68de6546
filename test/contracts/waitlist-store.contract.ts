import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { WaitlistEntry, WaitlistToken } from '../../ports/waitlist-store.js';
import type { Backend, Stores } from './backends.js';
import { at, newAccount } from './fixtures.js';

const T0 = '2026-04-01T10:00:00.123Z';
const token = (expiresAt = at('2026-04-08T10:00:00.123Z')): WaitlistToken => ({ tokenHash: randomBytes(32).toString('hex'), expiresAt });
const entry = (over: Partial<WaitlistEntry> = {}): WaitlistEntry => ({
  id: randomUUID(),
  email: `kari.${randomUUID().slice(0, 8)}@example.com`,
  language: 'nb',
  createdAt: at(T0),
  confirmedAt: null,
  lastMailedAt: at(T0),
  accountId: null,
  ...over,
});

export function waitlistStoreContract(backend: Backend): void {
  describe(`WaitlistStore [${backend.name}]`, () => {
    let s: Stores;
    beforeEach(async () => {
      s = await backend.open();
    });
    afterEach(async () => s.close());

    /** An entry that is an account's (the account exists, as the foreign key wants). */
    async function ofAccount() {
      const account = newAccount();
      await s.accounts.create(account);
      const row = entry({ email: account.email!.toLowerCase() });
      await s.waitlist.add(row, token());
      expect(await s.waitlist.linkAccount(row.email, account.id)).to.equal(true);
      return { account, row: { ...row, accountId: account.id } };
    }

    it('round-trips an entry, dates with milliseconds and null confirmation included, by address and by token', async () => {
      const row = entry({ language: 'en' });
      const t = token();
      expect(await s.waitlist.add(row, t)).to.equal('added');
      expect(await s.waitlist.byEmail(row.email)).to.deep.equal(row);
      expect(await s.waitlist.byEmail('nobody@example.com')).to.equal(null);
      expect(await s.waitlist.byToken(t.tokenHash)).to.deep.equal({ entry: row, expiresAt: t.expiresAt });
      expect(await s.waitlist.byToken(token().tokenHash)).to.equal(null);
    });

    it('lists an address once: a second add answers email-taken and writes not its token; one of simultaneous adds wins', async () => {
      const row = entry();
      await s.waitlist.add(row, token());
      const late = token();
      expect(await s.waitlist.add(entry({ email: row.email }), late)).to.equal('email-taken');
      expect(await s.waitlist.byToken(late.tokenHash)).to.equal(null);
      expect(await s.waitlist.byEmail(row.email)).to.deep.equal(row);
      const email = `same.${randomUUID().slice(0, 8)}@example.com`;
      const results = await Promise.all(Array.from({ length: 5 }, () => s.waitlist.add(entry({ email }), token())));
      expect(results.filter((r) => r === 'added')).to.have.length(1);
    });

    it('records a further mail only when the last one is old enough, once among simultaneous calls', async () => {
      const row = entry();
      const first = token();
      await s.waitlist.add(row, first);
      const second = token();
      const mail = { at: at('2026-04-02T10:00:00.456Z'), language: 'en' as const, token: second };
      expect(await s.waitlist.recordMail(row.id, mail, at('2026-04-01T10:00:00.122Z'))).to.equal(false);
      expect(await s.waitlist.byToken(second.tokenHash)).to.equal(null);
      const results = await Promise.all([mail, { ...mail, token: token() }, { ...mail, token: token() }].map((m) => s.waitlist.recordMail(row.id, m, at(T0))));
      expect(results.filter(Boolean)).to.have.length(1);
      const after = { ...row, language: 'en', lastMailedAt: at('2026-04-02T10:00:00.456Z') };
      expect(await s.waitlist.byEmail(row.email)).to.deep.equal(after);
      expect(await s.waitlist.byToken(first.tokenHash)).to.deep.equal({ entry: after, expiresAt: first.expiresAt });
    });

    it('spends the token and every other token of its entry on confirm, keeping the first confirmation time', async () => {
      const row = entry();
      const [a, b] = [token(), token()];
      await s.waitlist.add(row, a);
      await s.waitlist.recordMail(row.id, { at: at('2026-04-02T10:00:00.000Z'), language: 'nb', token: b }, at(T0));
      expect(await s.waitlist.confirm(b.tokenHash, at('2026-04-03T08:00:00.789Z'))).to.equal(true);
      expect(await s.waitlist.confirm(b.tokenHash, at('2026-04-03T08:00:01.000Z'))).to.equal(false);
      expect(await s.waitlist.confirm(a.tokenHash, at('2026-04-03T08:00:01.000Z'))).to.equal(false);
      expect(await s.waitlist.byToken(a.tokenHash)).to.equal(null);
      expect((await s.waitlist.byEmail(row.email))?.confirmedAt).to.deep.equal(at('2026-04-03T08:00:00.789Z'));
      // A confirmed entry records no further mail.
      expect(await s.waitlist.recordMail(row.id, { at: at('2026-04-05T08:00:00.000Z'), language: 'en', token: token() }, at('2026-04-04T08:00:00.000Z'))).to.equal(false);
    });

    it('lets one of simultaneous clicks of one link spend it', async () => {
      const row = entry();
      const t = token();
      await s.waitlist.add(row, t);
      const results = await Promise.all(Array.from({ length: 4 }, () => s.waitlist.confirm(t.tokenHash, at('2026-04-02T10:00:00.000Z'))));
      expect(results.filter(Boolean)).to.have.length(1);
    });

    it('keeps the unspent tokens of a removed entry, without it; they confirm nothing; the address may come again', async () => {
      const row = entry();
      const t = token();
      await s.waitlist.add(row, t);
      expect(await s.waitlist.remove(row.id)).to.equal(true);
      expect(await s.waitlist.remove(row.id)).to.equal(false);
      expect(await s.waitlist.byEmail(row.email)).to.equal(null);
      expect(await s.waitlist.byToken(t.tokenHash)).to.deep.equal({ entry: null, expiresAt: t.expiresAt });
      expect(await s.waitlist.confirm(t.tokenHash, at('2026-04-02T10:00:00.000Z'))).to.equal(false);
      expect(await s.waitlist.add(entry({ email: row.email }), token())).to.equal('added');
      expect((await s.waitlist.byToken(t.tokenHash))?.entry).to.equal(null);
    });

    it('removes unconfirmed entries of no account created before the cutoff, keeping confirmed, younger and accounts\' ones', async () => {
      const old = entry({ createdAt: at('2026-04-01T10:00:00.000Z'), lastMailedAt: at('2026-04-03T10:00:00.000Z') });
      const edge = entry({ createdAt: at('2026-04-01T10:00:00.001Z'), lastMailedAt: at('2026-04-01T10:00:00.001Z') });
      const confirmed = entry({ createdAt: at('2026-03-01T10:00:00.000Z'), confirmedAt: at('2026-03-02T10:00:00.000Z'), lastMailedAt: at('2026-03-01T10:00:00.000Z') });
      const oldToken = token();
      await s.waitlist.add(old, oldToken);
      await s.waitlist.add(edge, token());
      await s.waitlist.add(confirmed, token());
      const linked = await ofAccount();
      expect(await s.waitlist.removeUnconfirmed(at('2026-04-01T10:00:00.001Z'))).to.equal(1);
      expect(await s.waitlist.byEmail(old.email)).to.equal(null);
      expect(await s.waitlist.byToken(oldToken.tokenHash)).to.deep.equal({ entry: null, expiresAt: oldToken.expiresAt });
      for (const kept of [edge, confirmed, linked.row]) expect(await s.waitlist.byEmail(kept.email)).to.deep.equal(kept);
      expect(await s.waitlist.removeUnconfirmed(at('2026-04-01T10:00:00.001Z'))).to.equal(0);
    });

    it('forgets the tokens whose links expired before the cutoff, and only those', async () => {
      const [gone, kept] = [token(at('2026-04-08T10:00:00.000Z')), token(at('2026-04-08T10:00:00.001Z'))];
      const [a, b] = [entry(), entry()];
      await s.waitlist.add(a, gone);
      await s.waitlist.add(b, kept);
      await s.waitlist.remove(a.id);
      expect(await s.waitlist.forgetTokens(at('2026-04-08T10:00:00.001Z'))).to.equal(1);
      expect(await s.waitlist.byToken(gone.tokenHash)).to.equal(null);
      expect(await s.waitlist.byToken(kept.tokenHash)).to.deep.equal({ entry: b, expiresAt: kept.expiresAt });
    });

    it('links an entry to the account of its address once; a linked entry takes no further mail', async () => {
      const { account, row } = await ofAccount();
      expect(await s.waitlist.byEmail(row.email)).to.deep.equal(row);
      expect(await s.waitlist.linkAccount(row.email, account.id)).to.equal(false);
      expect(await s.waitlist.linkAccount('nobody@example.com', account.id)).to.equal(false);
      expect(await s.waitlist.recordMail(row.id, { at: at('2026-04-05T08:00:00.000Z'), language: 'en', token: token() }, at('2026-04-04T08:00:00.000Z'))).to.equal(false);
    });

    it('removes the entries of an account: the linked one and the unlinked one of its address, not others\'', async () => {
      const { account, row } = await ofAccount();
      const ofAddress = entry();
      const other = await ofAccount();
      const stranger = entry();
      await s.waitlist.add(ofAddress, token());
      await s.waitlist.add(stranger, token());
      expect(await s.waitlist.removeOfAccount(account.id, ofAddress.email)).to.equal(2);
      expect(await s.waitlist.byEmail(row.email)).to.equal(null);
      expect(await s.waitlist.byEmail(ofAddress.email)).to.equal(null);
      // Another account's entry of that address stays (an account that changed its address may hold it).
      expect(await s.waitlist.removeOfAccount(account.id, other.row.email)).to.equal(0);
      expect(await s.waitlist.byEmail(other.row.email)).to.deep.equal(other.row);
      expect(await s.waitlist.byEmail(stranger.email)).to.deep.equal(stranger);
      expect(await s.waitlist.removeOfAccount(account.id, null)).to.equal(0);
    });

    it('deletes an account\'s entry with the account', async () => {
      const { account, row } = await ofAccount();
      const stranger = entry();
      await s.waitlist.add(stranger, token());
      await s.accounts.delete(account.id);
      expect(await s.waitlist.byEmail(row.email)).to.equal(null);
      expect(await s.waitlist.byEmail(stranger.email)).to.deep.equal(stranger);
    });
  });
}
