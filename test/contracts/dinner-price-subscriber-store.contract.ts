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
  });
}
