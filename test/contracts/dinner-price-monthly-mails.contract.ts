import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { ListedAddress, ListToken } from '../../ports/mailing-list-store.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at } from './fixtures.js';
import { address as subscriber, hash } from './mailing-list-store.contract.js';

const mailTokens = (): ListToken[] => [
  { tokenHash: hash(), purpose: 'confirm', expiresAt: null },
  { tokenHash: hash(), purpose: 'unsubscribe', expiresAt: null },
];

/** The dinner-price list's monthly mails, over the list of mailing-list-store.contract.ts. */
export function dinnerPriceMonthlyMailsContract(backend: Backend): void {
  storeSuite(backend, 'DinnerPriceMonthlyMails', (s) => {
    const confirmedAt = at('2026-03-10T08:00:00.000Z');
    const unsubscribeToken = (): ListToken[] => [{ tokenHash: hash(), purpose: 'unsubscribe', expiresAt: null }];
    const claim = (id: string, month = '2026-03', tokens = unsubscribeToken()) =>
      s.dinnerPriceSubscribers.claimMonthlyMail(id, month, { at: at('2026-04-01T06:12:00.321Z'), tokens });
    const due = (month = '2026-03', o: { confirmedBefore?: Date; afterId?: string | null; limit?: number } = {}) =>
      s.dinnerPriceSubscribers.dueForMonthlyMail({ month, confirmedBefore: o.confirmedBefore ?? at('2026-03-31T22:00:00.000Z'), afterId: o.afterId ?? null, limit: o.limit ?? 100 });
    async function confirmedSubscriber(over: Partial<ListedAddress> = {}): Promise<ListedAddress> {
      const row = subscriber({ confirmedAt, ...over });
      await s.dinnerPriceSubscribers.add(row, mailTokens());
      return row;
    }

    it('round-trips a claim and its sending, dates with milliseconds included; the claim issues the mail\'s token', async () => {
      const row = await confirmedSubscriber();
      const tokens = unsubscribeToken();
      expect(await claim(row.id, '2026-03', tokens)).to.equal(true);
      expect(await s.dinnerPriceSubscribers.monthlyMailsOf(row.id)).to.deep.equal([{ month: '2026-03', claimedAt: at('2026-04-01T06:12:00.321Z'), sentAt: null }]);
      expect(await s.dinnerPriceSubscribers.byToken(tokens[0]!.tokenHash, 'unsubscribe')).to.deep.equal({ address: row, expiresAt: null, exit: null });
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
}
