import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { DinnerPriceSubscriber, DinnerPriceToken } from '../../ports/dinner-price-subscriber-store.js';
import type { Backend, Stores } from './backends.js';
import { at } from './fixtures.js';

const hash = () => randomBytes(32).toString('hex');
const mailTokens = (): DinnerPriceToken[] => [
  { tokenHash: hash(), purpose: 'confirm' },
  { tokenHash: hash(), purpose: 'unsubscribe' },
];
const subscriber = (over: Partial<DinnerPriceSubscriber> = {}): DinnerPriceSubscriber => ({
  id: randomUUID(),
  email: `kari.${randomUUID().slice(0, 8)}@example.com`,
  language: 'nb',
  createdAt: at('2026-04-01T10:00:00.123Z'),
  confirmedAt: null,
  lastMailedAt: at('2026-04-01T10:00:00.123Z'),
  ...over,
});

export function dinnerPriceSubscriberStoreContract(backend: Backend): void {
  describe(`DinnerPriceSubscriberStore [${backend.name}]`, () => {
    let s: Stores;
    beforeEach(async () => {
      s = await backend.open();
    });
    afterEach(async () => s.close());

    it('round-trips an address, dates with milliseconds and null confirmation included, by address and by either token', async () => {
      const row = subscriber({ language: 'en' });
      const [confirm, unsubscribe] = mailTokens();
      expect(await s.dinnerPriceSubscribers.add(row, [confirm!, unsubscribe!])).to.equal('added');
      expect(await s.dinnerPriceSubscribers.byEmail(row.email)).to.deep.equal(row);
      expect(await s.dinnerPriceSubscribers.byEmail('nobody@example.com')).to.equal(null);
      expect(await s.dinnerPriceSubscribers.byToken(confirm!.tokenHash, 'confirm')).to.deep.equal({ state: 'listed', subscriber: row });
      expect(await s.dinnerPriceSubscribers.byToken(unsubscribe!.tokenHash, 'unsubscribe')).to.deep.equal({ state: 'listed', subscriber: row });
    });

    it('keeps the purposes apart: a token answers only for its own', async () => {
      const [confirm, unsubscribe] = mailTokens();
      await s.dinnerPriceSubscribers.add(subscriber(), [confirm!, unsubscribe!]);
      expect(await s.dinnerPriceSubscribers.byToken(confirm!.tokenHash, 'unsubscribe')).to.equal(null);
      expect(await s.dinnerPriceSubscribers.byToken(unsubscribe!.tokenHash, 'confirm')).to.equal(null);
      expect(await s.dinnerPriceSubscribers.byToken(hash(), 'confirm')).to.equal(null);
    });

    it('lists an address once: a second add answers email-taken and writes none of its tokens', async () => {
      const row = subscriber();
      await s.dinnerPriceSubscribers.add(row, mailTokens());
      const late = mailTokens();
      expect(await s.dinnerPriceSubscribers.add(subscriber({ email: row.email }), late)).to.equal('email-taken');
      expect(await s.dinnerPriceSubscribers.byToken(late[0]!.tokenHash, 'confirm')).to.equal(null);
      expect(await s.dinnerPriceSubscribers.byEmail(row.email)).to.deep.equal(row);
    });

    it('gives one of several simultaneous first adds the address', async () => {
      const email = `same.${randomUUID().slice(0, 8)}@example.com`;
      const results = await Promise.all(Array.from({ length: 5 }, () => s.dinnerPriceSubscribers.add(subscriber({ email }), mailTokens())));
      expect(results.filter((r) => r === 'added')).to.have.length(1);
    });

    it('records a further mail only when the last one is old enough: language moves, earlier tokens keep working', async () => {
      const row = subscriber();
      const first = mailTokens();
      await s.dinnerPriceSubscribers.add(row, first);
      const second = mailTokens();
      const mail = { at: at('2026-04-02T10:00:00.456Z'), language: 'en' as const, tokens: second };
      // The last mail is later than allowed: nothing changes.
      expect(await s.dinnerPriceSubscribers.recordMail(row.id, mail, at('2026-04-01T10:00:00.122Z'))).to.equal(false);
      expect(await s.dinnerPriceSubscribers.byToken(second[0]!.tokenHash, 'confirm')).to.equal(null);
      expect(await s.dinnerPriceSubscribers.recordMail(row.id, mail, at('2026-04-01T10:00:00.123Z'))).to.equal(true);
      const after = { ...row, language: 'en', lastMailedAt: at('2026-04-02T10:00:00.456Z') };
      expect(await s.dinnerPriceSubscribers.byEmail(row.email)).to.deep.equal(after);
      for (const t of [...first, ...second]) expect(await s.dinnerPriceSubscribers.byToken(t.tokenHash, t.purpose)).to.deep.equal({ state: 'listed', subscriber: after });
    });

    it('records one of several simultaneous further mails', async () => {
      const row = subscriber();
      await s.dinnerPriceSubscribers.add(row, mailTokens());
      const results = await Promise.all(
        Array.from({ length: 5 }, () => s.dinnerPriceSubscribers.recordMail(row.id, { at: at('2026-04-02T11:00:00.000Z'), language: 'nb', tokens: mailTokens() }, at('2026-04-01T11:00:00.000Z'))),
      );
      expect(results.filter(Boolean)).to.have.length(1);
    });

    it('confirms once and keeps the first time; records no further mail for a confirmed address', async () => {
      const row = subscriber();
      await s.dinnerPriceSubscribers.add(row, mailTokens());
      expect(await s.dinnerPriceSubscribers.confirm(row.id, at('2026-04-03T08:00:00.789Z'))).to.equal(true);
      expect(await s.dinnerPriceSubscribers.confirm(row.id, at('2026-04-04T08:00:00.000Z'))).to.equal(true);
      expect((await s.dinnerPriceSubscribers.byEmail(row.email))?.confirmedAt).to.deep.equal(at('2026-04-03T08:00:00.789Z'));
      expect(await s.dinnerPriceSubscribers.recordMail(row.id, { at: at('2026-04-05T08:00:00.000Z'), language: 'en', tokens: mailTokens() }, at('2026-04-04T08:00:00.000Z'))).to.equal(false);
      expect(await s.dinnerPriceSubscribers.confirm(randomUUID(), at('2026-04-03T08:00:00.000Z'))).to.equal(false);
    });

    it('removes the row and remembers its tokens as left, without the address', async () => {
      const row = subscriber();
      const tokens = mailTokens();
      await s.dinnerPriceSubscribers.add(row, tokens);
      expect(await s.dinnerPriceSubscribers.remove(row.id, 'unsubscribed', at('2026-04-02T10:00:00.000Z'))).to.equal(true);
      expect(await s.dinnerPriceSubscribers.remove(row.id, 'unsubscribed', at('2026-04-02T10:00:00.000Z'))).to.equal(false);
      expect(await s.dinnerPriceSubscribers.byEmail(row.email)).to.equal(null);
      for (const t of tokens) expect(await s.dinnerPriceSubscribers.byToken(t.tokenHash, t.purpose)).to.deep.equal({ state: 'left', exit: 'unsubscribed' });
      expect(await s.dinnerPriceSubscribers.confirm(row.id, at('2026-04-02T10:00:00.000Z'))).to.equal(false);
      // The address may be listed again, with new tokens; the old ones stay with the old exit.
      const again = subscriber({ email: row.email });
      expect(await s.dinnerPriceSubscribers.add(again, mailTokens())).to.equal('added');
      expect(await s.dinnerPriceSubscribers.byToken(tokens[0]!.tokenHash, 'confirm')).to.deep.equal({ state: 'left', exit: 'unsubscribed' });
    });

    it('removes unconfirmed addresses created before the cutoff as expired, keeping confirmed and younger ones', async () => {
      const old = subscriber({ createdAt: at('2026-04-01T10:00:00.000Z'), lastMailedAt: at('2026-04-03T10:00:00.000Z') });
      const edge = subscriber({ createdAt: at('2026-04-01T10:00:00.001Z'), lastMailedAt: at('2026-04-01T10:00:00.001Z') });
      const confirmed = subscriber({ createdAt: at('2026-03-01T10:00:00.000Z'), confirmedAt: at('2026-03-02T10:00:00.000Z'), lastMailedAt: at('2026-03-01T10:00:00.000Z') });
      const oldTokens = mailTokens();
      await s.dinnerPriceSubscribers.add(old, oldTokens);
      await s.dinnerPriceSubscribers.add(edge, mailTokens());
      await s.dinnerPriceSubscribers.add(confirmed, mailTokens());
      expect(await s.dinnerPriceSubscribers.removeUnconfirmed(at('2026-04-01T10:00:00.001Z'), at('2026-04-08T10:00:00.000Z'))).to.equal(1);
      expect(await s.dinnerPriceSubscribers.byEmail(old.email)).to.equal(null);
      expect(await s.dinnerPriceSubscribers.byEmail(edge.email)).to.deep.equal(edge);
      expect(await s.dinnerPriceSubscribers.byEmail(confirmed.email)).to.deep.equal(confirmed);
      expect(await s.dinnerPriceSubscribers.byToken(oldTokens[0]!.tokenHash, 'confirm')).to.deep.equal({ state: 'left', exit: 'expired' });
      expect(await s.dinnerPriceSubscribers.removeUnconfirmed(at('2026-04-01T10:00:00.001Z'), at('2026-04-08T11:00:00.000Z'))).to.equal(0);
    });

    it('forgets the tokens of addresses that left before the cutoff, and only those', async () => {
      const gone = subscriber();
      const goneTokens = mailTokens();
      const later = subscriber();
      const laterTokens = mailTokens();
      const listed = subscriber();
      const listedTokens = mailTokens();
      await s.dinnerPriceSubscribers.add(gone, goneTokens);
      await s.dinnerPriceSubscribers.add(later, laterTokens);
      await s.dinnerPriceSubscribers.add(listed, listedTokens);
      await s.dinnerPriceSubscribers.remove(gone.id, 'unsubscribed', at('2026-04-02T10:00:00.000Z'));
      await s.dinnerPriceSubscribers.remove(later.id, 'expired', at('2026-04-03T10:00:00.000Z'));
      expect(await s.dinnerPriceSubscribers.forgetLeft(at('2026-04-03T10:00:00.000Z'))).to.equal(2);
      for (const t of goneTokens) expect(await s.dinnerPriceSubscribers.byToken(t.tokenHash, t.purpose)).to.equal(null);
      expect(await s.dinnerPriceSubscribers.byToken(laterTokens[0]!.tokenHash, 'confirm')).to.deep.equal({ state: 'left', exit: 'expired' });
      expect(await s.dinnerPriceSubscribers.byToken(listedTokens[1]!.tokenHash, 'unsubscribe')).to.deep.equal({ state: 'listed', subscriber: listed });
    });

    describe('monthly mails', () => {
      const confirmedAt = at('2026-03-10T08:00:00.000Z');
      const unsubscribeToken = (): DinnerPriceToken[] => [{ tokenHash: hash(), purpose: 'unsubscribe' }];
      const claim = (id: string, month = '2026-03', tokens = unsubscribeToken()) =>
        s.dinnerPriceSubscribers.claimMonthlyMail(id, month, { at: at('2026-04-01T06:12:00.321Z'), tokens });
      const due = (month = '2026-03', o: { confirmedBefore?: Date; afterId?: string | null; limit?: number } = {}) =>
        s.dinnerPriceSubscribers.dueForMonthlyMail({ month, confirmedBefore: o.confirmedBefore ?? at('2026-03-31T22:00:00.000Z'), afterId: o.afterId ?? null, limit: o.limit ?? 100 });
      async function confirmedSubscriber(over: Partial<DinnerPriceSubscriber> = {}): Promise<DinnerPriceSubscriber> {
        const row = subscriber({ confirmedAt, ...over });
        await s.dinnerPriceSubscribers.add(row, mailTokens());
        return row;
      }

      it('round-trips a claim and its sending, dates with milliseconds included; the claim issues the mail\'s token', async () => {
        const row = await confirmedSubscriber();
        const tokens = unsubscribeToken();
        expect(await claim(row.id, '2026-03', tokens)).to.equal(true);
        expect(await s.dinnerPriceSubscribers.monthlyMailsOf(row.id)).to.deep.equal([{ month: '2026-03', claimedAt: at('2026-04-01T06:12:00.321Z'), sentAt: null }]);
        expect(await s.dinnerPriceSubscribers.byToken(tokens[0]!.tokenHash, 'unsubscribe')).to.deep.equal({ state: 'listed', subscriber: row });
        await s.dinnerPriceSubscribers.monthlyMailSent(row.id, '2026-03', at('2026-04-01T06:12:01.654Z'));
        expect(await claim(row.id, '2026-02')).to.equal(true);
        expect(await s.dinnerPriceSubscribers.monthlyMailsOf(row.id)).to.deep.equal([
          { month: '2026-02', claimedAt: at('2026-04-01T06:12:00.321Z'), sentAt: null },
          { month: '2026-03', claimedAt: at('2026-04-01T06:12:00.321Z'), sentAt: at('2026-04-01T06:12:01.654Z') },
        ]);
        expect(await s.dinnerPriceSubscribers.monthlyMailsOf(randomUUID())).to.deep.equal([]);
      });

      it('claims an address and month once: a second claim answers false and issues none of its tokens', async () => {
        const row = await confirmedSubscriber();
        expect(await claim(row.id)).to.equal(true);
        const late = unsubscribeToken();
        expect(await claim(row.id, '2026-03', late)).to.equal(false);
        expect(await s.dinnerPriceSubscribers.byToken(late[0]!.tokenHash, 'unsubscribe')).to.equal(null);
        expect(await s.dinnerPriceSubscribers.monthlyMailsOf(row.id)).to.have.length(1);
      });

      it('gives exactly one of many simultaneous claims of an address and month', async () => {
        const rows = await Promise.all(Array.from({ length: 4 }, () => confirmedSubscriber()));
        const results = await Promise.all(rows.flatMap((r) => Array.from({ length: 6 }, () => claim(r.id).then((won) => ({ id: r.id, won })))));
        for (const r of rows) expect(results.filter((x) => x.id === r.id && x.won), r.id).to.have.length(1);
      });

      it('lists as due the confirmed addresses confirmed before the cutoff without a mail of the month, by id, a page at a time', async () => {
        const a = await confirmedSubscriber();
        const b = await confirmedSubscriber();
        const c = await confirmedSubscriber({ confirmedAt: at('2026-03-31T21:59:59.999Z') });
        const claimed = await confirmedSubscriber();
        const sent = await confirmedSubscriber();
        const mailedBefore = await confirmedSubscriber();
        const atCutoff = await confirmedSubscriber({ confirmedAt: at('2026-03-31T22:00:00.000Z') });
        await s.dinnerPriceSubscribers.add(subscriber(), mailTokens());
        await claim(claimed.id);
        await claim(sent.id);
        await s.dinnerPriceSubscribers.monthlyMailSent(sent.id, '2026-03', at('2026-04-01T06:13:00.000Z'));
        await claim(mailedBefore.id, '2026-02');
        const expected = [a, b, c, mailedBefore].sort((x, y) => (x.id < y.id ? -1 : 1));
        expect(await due()).to.deep.equal(expected);
        const first = await due('2026-03', { limit: 3 });
        expect(first).to.deep.equal(expected.slice(0, 3));
        expect(await due('2026-03', { afterId: first[2]!.id, limit: 3 })).to.deep.equal(expected.slice(3));
        expect(await due('2026-03', { afterId: expected[3]!.id })).to.deep.equal([]);
        // Another month: every confirmed address before its cutoff is due, whatever March had.
        const april = await due('2026-04', { confirmedBefore: at('2026-04-30T22:00:00.000Z') });
        expect(april.map((r) => r.id)).to.have.members([a, b, c, claimed, sent, mailedBefore, atCutoff].map((r) => r.id));
      });

      it('gives back a claim not sent, so that it is due and claimed again; a sent one stays', async () => {
        const refused = await confirmedSubscriber();
        const sent = await confirmedSubscriber();
        await claim(refused.id);
        await claim(sent.id);
        await s.dinnerPriceSubscribers.monthlyMailSent(sent.id, '2026-03', at('2026-04-01T06:13:00.000Z'));
        await s.dinnerPriceSubscribers.releaseMonthlyMail(refused.id, '2026-03');
        await s.dinnerPriceSubscribers.releaseMonthlyMail(sent.id, '2026-03');
        expect((await due()).map((r) => r.id)).to.deep.equal([refused.id]);
        expect(await s.dinnerPriceSubscribers.monthlyMailsOf(refused.id)).to.deep.equal([]);
        expect(await claim(refused.id)).to.equal(true);
        expect(await claim(sent.id)).to.equal(false);
      });

      it('forgets the mails with the address when it leaves; an address no longer listed is never claimed', async () => {
        const row = await confirmedSubscriber();
        await claim(row.id);
        await s.dinnerPriceSubscribers.monthlyMailSent(row.id, '2026-03', at('2026-04-01T06:13:00.000Z'));
        expect(await s.dinnerPriceSubscribers.remove(row.id, 'unsubscribed', at('2026-04-02T10:00:00.000Z'))).to.equal(true);
        expect(await s.dinnerPriceSubscribers.monthlyMailsOf(row.id)).to.deep.equal([]);
        const tokens = unsubscribeToken();
        expect(await claim(row.id, '2026-04', tokens)).to.equal(false);
        expect(await s.dinnerPriceSubscribers.byToken(tokens[0]!.tokenHash, 'unsubscribe')).to.equal(null);
        expect(await claim(randomUUID())).to.equal(false);
        // The same address listed again is a new row, due with none of the old mails.
        const again = await confirmedSubscriber({ email: row.email });
        expect((await due()).map((r) => r.id)).to.include(again.id);
      });
    });
  });
}
