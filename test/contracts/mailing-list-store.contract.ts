import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { MAILING_LISTS, type LinkPurpose, type ListedAddress, type ListToken, type MailingList, type MailingListStore } from '../../ports/mailing-list-store.js';
import type { Backend, Stores } from './backends.js';
import { storeSuite } from './suite.js';
import { at, createdAccount } from './fixtures.js';

const T0 = '2026-04-01T10:00:00.123Z';
export const hash = () => randomBytes(32).toString('hex');
/** An unconfirmed address of no account, mailed once at T0. */
export const address = (over: Partial<ListedAddress> = {}): ListedAddress => ({
  id: randomUUID(),
  email: `kari.${randomUUID().slice(0, 8)}@example.com`,
  language: 'nb',
  createdAt: at(T0),
  confirmedAt: null,
  lastMailedAt: at(T0),
  accountId: null,
  ...over,
});

/** The stores of one list, and the tokens its links take. */
function listOf(list: MailingList) {
  const rules = MAILING_LISTS[list];
  const token = (purpose: LinkPurpose = 'confirm', expiresAt = at('2026-04-08T10:00:00.123Z')): ListToken => ({
    tokenHash: hash(),
    purpose,
    expiresAt: rules.linksExpire ? expiresAt : null,
  });
  return {
    list,
    rules,
    store: (s: Stores): MailingListStore => (list === 'waitlist' ? s.waitlist : s.dinnerPriceSubscribers),
    token,
    /** What one mail carries: a token for each purpose the list's links have. */
    mail: (): ListToken[] => rules.purposes.map((p) => token(p)),
  };
}

/** One list under test: its store in the backend opened for the test, and the tokens its links take. */
interface ListUnderTest extends ReturnType<typeof listOf> {
  readonly s: () => Stores;
  readonly l: () => MailingListStore;
}

/** Every double-opt-in list (ports/mailing-list-store.ts) keeps this contract; then each its own rules. */
export function mailingListStoreContract(backend: Backend): void {
  for (const list of Object.keys(MAILING_LISTS) as MailingList[]) {
    storeSuite(backend, `MailingListStore '${list}'`, (s) => {
      const kit = listOf(list);
      const t: ListUnderTest = { ...kit, s: () => s, l: () => kit.store(s) };
      everyListContract(t);
      if (kit.rules.linksExpire) expiringLinksContract(t);
      else lastingLinksContract(t);
      if (kit.rules.linksAccounts) accountsContract(t);
      else noAccountsContract(t);
    });
  }
}

const listed = (a: ListedAddress, t: ListToken) => ({ address: a, expiresAt: t.expiresAt, exit: null });

/** What every list does, whatever its rules. */
function everyListContract({ list, l: store, rules, token, mail }: ListUnderTest): void {
  let l: MailingListStore;
  beforeEach(() => {
    l = store();
  });

  it('round-trips an address, dates with milliseconds and null confirmation included, by address and by each token', async () => {
    const row = address({ language: 'en' });
    const tokens = mail();
    expect(await l.add(row, tokens)).to.equal('added');
    expect(await l.byEmail(row.email)).to.deep.equal(row);
    expect(await l.byEmail('nobody@example.com')).to.equal(null);
    for (const t of tokens) expect(await l.byToken(t.tokenHash, t.purpose)).to.deep.equal(listed(row, t));
    expect(await l.byToken(hash(), 'confirm')).to.equal(null);
  });

  it('keeps purposes apart: a token answers only for its own, and the list issues only its own', async () => {
    const [confirm] = mail();
    await l.add(address(), [confirm!]);
    expect(await l.byToken(confirm!.tokenHash, 'unsubscribe')).to.equal(null);
    const purposes: LinkPurpose[] = ['confirm', 'unsubscribe'];
    for (const p of purposes.filter((x) => !rules.purposes.includes(x))) {
      let refused: unknown = null;
      await l.add(address(), [token(p)]).catch((err: unknown) => (refused = err));
      expect(refused, `${list} refuses a ${p} link`).to.be.instanceOf(Error);
    }
  });

  it('lists an address once: a second add answers email-taken and writes none of its tokens; one of simultaneous adds wins', async () => {
    const row = address();
    await l.add(row, mail());
    const late = mail();
    expect(await l.add(address({ email: row.email }), late)).to.equal('email-taken');
    expect(await l.byToken(late[0]!.tokenHash, late[0]!.purpose)).to.equal(null);
    expect(await l.byEmail(row.email)).to.deep.equal(row);
    const email = `same.${randomUUID().slice(0, 8)}@example.com`;
    const results = await Promise.all(Array.from({ length: 5 }, () => l.add(address({ email }), mail())));
    expect(results.filter((r) => r === 'added')).to.have.length(1);
  });

  it('records a further mail only when the last one is old enough, once among simultaneous calls; earlier tokens keep working', async () => {
    const row = address();
    const first = mail();
    await l.add(row, first);
    const second = mail();
    const further = { at: at('2026-04-02T10:00:00.456Z'), language: 'en' as const, tokens: second };
    expect(await l.recordMail(row.id, further, at('2026-04-01T10:00:00.122Z'))).to.equal(false);
    expect(await l.byToken(second[0]!.tokenHash, second[0]!.purpose)).to.equal(null);
    const mails = [further, { ...further, tokens: mail() }, { ...further, tokens: mail() }];
    const results = await Promise.all(mails.map((m) => l.recordMail(row.id, m, at(T0))));
    expect(results.filter(Boolean)).to.have.length(1);
    const recorded = mails[results.indexOf(true)]!.tokens;
    const after = { ...row, language: 'en' as const, lastMailedAt: at('2026-04-02T10:00:00.456Z') };
    expect(await l.byEmail(row.email)).to.deep.equal(after);
    for (const t of [...first, ...recorded]) expect(await l.byToken(t.tokenHash, t.purpose)).to.deep.equal(listed(after, t));
  });

  it('confirms by a confirm token and keeps the first time; a confirmed address takes no further mail', async () => {
    const row = address();
    const [confirm] = mail();
    await l.add(row, [confirm!]);
    expect(await l.confirm(confirm!.tokenHash, at('2026-04-03T08:00:00.789Z'))).to.equal(true);
    // The same link again: spent on a list whose confirming spends links, else confirmed still.
    expect(await l.confirm(confirm!.tokenHash, at('2026-04-04T08:00:00.000Z'))).to.equal(!rules.confirmSpendsLinks);
    expect((await l.byEmail(row.email))?.confirmedAt).to.deep.equal(at('2026-04-03T08:00:00.789Z'));
    expect(await l.recordMail(row.id, { at: at('2026-04-05T08:00:00.000Z'), language: 'en', tokens: mail() }, at('2026-04-04T08:00:00.000Z'))).to.equal(false);
    expect(await l.confirm(hash(), at('2026-04-03T08:00:00.000Z'))).to.equal(false);
  });

  it('removes the row and keeps its tokens without it; they confirm nothing; the address may come again', async () => {
    const row = address();
    const tokens = mail();
    await l.add(row, tokens);
    expect(await l.remove(row.id, 'unsubscribed', at('2026-04-02T10:00:00.000Z'))).to.equal(true);
    expect(await l.remove(row.id, 'unsubscribed', at('2026-04-02T10:00:00.000Z'))).to.equal(false);
    expect(await l.byEmail(row.email)).to.equal(null);
    const exit = rules.remembersExit ? 'unsubscribed' : null;
    for (const t of tokens) expect(await l.byToken(t.tokenHash, t.purpose)).to.deep.equal({ address: null, expiresAt: t.expiresAt, exit });
    expect(await l.confirm(tokens[0]!.tokenHash, at('2026-04-02T10:00:00.000Z'))).to.equal(false);
    expect(await l.add(address({ email: row.email }), mail())).to.equal('added');
    expect((await l.byToken(tokens[0]!.tokenHash, tokens[0]!.purpose))?.address).to.equal(null);
  });

  it('removes unconfirmed addresses created before the cutoff as expired, keeping confirmed and younger ones', async () => {
    const old = address({ createdAt: at('2026-04-01T10:00:00.000Z'), lastMailedAt: at('2026-04-03T10:00:00.000Z') });
    const edge = address({ createdAt: at('2026-04-01T10:00:00.001Z'), lastMailedAt: at('2026-04-01T10:00:00.001Z') });
    const confirmed = address({ createdAt: at('2026-03-01T10:00:00.000Z'), confirmedAt: at('2026-03-02T10:00:00.000Z'), lastMailedAt: at('2026-03-01T10:00:00.000Z') });
    const [oldToken] = mail();
    await l.add(old, [oldToken!]);
    await l.add(edge, mail());
    await l.add(confirmed, mail());
    expect(await l.removeUnconfirmed(at('2026-04-01T10:00:00.001Z'), at('2026-04-08T10:00:00.000Z'))).to.equal(1);
    expect(await l.byEmail(old.email)).to.equal(null);
    expect(await l.byToken(oldToken!.tokenHash, 'confirm')).to.deep.equal({ address: null, expiresAt: oldToken!.expiresAt, exit: rules.remembersExit ? 'expired' : null });
    for (const kept of [edge, confirmed]) expect(await l.byEmail(kept.email)).to.deep.equal(kept);
    expect(await l.removeUnconfirmed(at('2026-04-01T10:00:00.001Z'), at('2026-04-08T11:00:00.000Z'))).to.equal(0);
  });
}

/** A list whose links expire and are spent by confirming. */
function expiringLinksContract({ l: store, token }: ListUnderTest): void {
  let l: MailingListStore;
  beforeEach(() => {
    l = store();
  });

  it('forgets the tokens whose links expired before the cutoff, spendable or not, and only those', async () => {
    const [gone, kept] = [token('confirm', at('2026-04-08T10:00:00.000Z')), token('confirm', at('2026-04-08T10:00:00.001Z'))];
    const [a, b, c] = [address(), address(), address()];
    const listedButExpired = token('confirm', at('2026-04-08T09:00:00.000Z'));
    await l.add(a, [gone]);
    await l.add(b, [kept]);
    await l.add(c, [listedButExpired]);
    await l.remove(a.id, 'expired', at('2026-04-02T10:00:00.000Z'));
    expect(await l.forgetTokens(at('2026-04-08T10:00:00.001Z'))).to.equal(2);
    expect(await l.byToken(gone.tokenHash, 'confirm')).to.equal(null);
    expect(await l.byToken(listedButExpired.tokenHash, 'confirm')).to.equal(null);
    expect(await l.byToken(kept.tokenHash, 'confirm')).to.deep.equal(listed(b, kept));
  });

  it('lets one of simultaneous clicks of one link spend it, and spends every other link of the address', async () => {
    const row = address();
    const [a, b] = [token(), token()];
    await l.add(row, [a]);
    await l.recordMail(row.id, { at: at('2026-04-02T10:00:00.000Z'), language: 'nb', tokens: [b] }, at(T0));
    const results = await Promise.all(Array.from({ length: 4 }, () => l.confirm(b.tokenHash, at('2026-04-03T10:00:00.000Z'))));
    expect(results.filter(Boolean)).to.have.length(1);
    expect(await l.confirm(a.tokenHash, at('2026-04-03T10:00:01.000Z'))).to.equal(false);
    expect(await l.byToken(a.tokenHash, 'confirm')).to.equal(null);
  });
}

/** A list whose links work while their address is listed, and remember why it left. */
function lastingLinksContract({ l: store, mail }: ListUnderTest): void {
  let l: MailingListStore;
  beforeEach(() => {
    l = store();
  });

  it('forgets the tokens of addresses that left before the cutoff, and only those', async () => {
    const [gone, later, stays] = [address(), address(), address()];
    const [goneTokens, laterTokens, staysTokens] = [mail(), mail(), mail()];
    await l.add(gone, goneTokens);
    await l.add(later, laterTokens);
    await l.add(stays, staysTokens);
    await l.remove(gone.id, 'unsubscribed', at('2026-04-02T10:00:00.000Z'));
    await l.remove(later.id, 'expired', at('2026-04-03T10:00:00.000Z'));
    expect(await l.forgetTokens(at('2026-04-03T10:00:00.000Z'))).to.equal(goneTokens.length);
    for (const t of goneTokens) expect(await l.byToken(t.tokenHash, t.purpose)).to.equal(null);
    expect(await l.byToken(laterTokens[0]!.tokenHash, laterTokens[0]!.purpose)).to.deep.equal({ address: null, expiresAt: null, exit: 'expired' });
    expect(await l.byToken(staysTokens[0]!.tokenHash, staysTokens[0]!.purpose)).to.deep.equal(listed(stays, staysTokens[0]!));
  });

  it('confirms every time while listed: simultaneous clicks all answer confirmed', async () => {
    const row = address();
    const [confirm] = mail();
    await l.add(row, [confirm!]);
    const results = await Promise.all(Array.from({ length: 4 }, () => l.confirm(confirm!.tokenHash, at('2026-04-02T10:00:00.000Z'))));
    expect(results.every(Boolean)).to.equal(true);
  });
}

/** A list that links no accounts. */
function noAccountsContract({ s, l: store, mail }: ListUnderTest): void {
  it('links no accounts', async () => {
    const l = store();
    const account = await createdAccount(s());
    const row = address({ email: account.email!.toLowerCase() });
    await l.add(row, mail());
    expect(await l.linkAccount(row.email, account.id)).to.equal(false);
    expect(await l.removeOfAccount(account.id, row.email)).to.equal(0);
    expect(await l.byEmail(row.email)).to.deep.equal(row);
  });
}

/** A list whose addresses become accounts': linking, and what goes with the account. */
function accountsContract({ s: stores, l: list, mail }: ListUnderTest): void {
  /** An address that is an account's (the account exists, as the foreign key wants). */
  async function ofAccount() {
    const account = await createdAccount(stores());
    const row = address({ email: account.email!.toLowerCase() });
    await list().add(row, mail());
    expect(await list().linkAccount(row.email, account.id)).to.equal(true);
    return { account, row: { ...row, accountId: account.id } };
  }

  it('links an address to the account of its address once; a linked address takes no further mail and does not expire', async () => {
    const { account, row } = await ofAccount();
    expect(await list().byEmail(row.email)).to.deep.equal(row);
    expect(await list().linkAccount(row.email, account.id)).to.equal(false);
    expect(await list().linkAccount('nobody@example.com', account.id)).to.equal(false);
    expect(await list().recordMail(row.id, { at: at('2026-04-05T08:00:00.000Z'), language: 'en', tokens: mail() }, at('2026-04-04T08:00:00.000Z'))).to.equal(false);
    expect(await list().removeUnconfirmed(at('2026-05-01T00:00:00.000Z'), at('2026-05-01T00:00:00.000Z'))).to.equal(0);
  });

  it('removes the addresses of an account: the linked one and the unlinked one of its address, not others\'', async () => {
    const { account, row } = await ofAccount();
    const ofAddress = address();
    const other = await ofAccount();
    const stranger = address();
    await list().add(ofAddress, mail());
    await list().add(stranger, mail());
    expect(await list().removeOfAccount(account.id, ofAddress.email)).to.equal(2);
    expect(await list().byEmail(row.email)).to.equal(null);
    expect(await list().byEmail(ofAddress.email)).to.equal(null);
    // Another account's address stays (an account that changed its address may hold it).
    expect(await list().removeOfAccount(account.id, other.row.email)).to.equal(0);
    expect(await list().byEmail(other.row.email)).to.deep.equal(other.row);
    expect(await list().byEmail(stranger.email)).to.deep.equal(stranger);
    expect(await list().removeOfAccount(account.id, null)).to.equal(0);
  });

  it('deletes an account\'s address with the account', async () => {
    const { account, row } = await ofAccount();
    const stranger = address();
    await list().add(stranger, mail());
    await stores().accounts.delete(account.id);
    expect(await list().byEmail(row.email)).to.equal(null);
    expect(await list().byEmail(stranger.email)).to.deep.equal(stranger);
  });
}
