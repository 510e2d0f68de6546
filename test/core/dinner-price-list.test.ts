import { expect } from 'chai';
import {
  CONFIRMATION_MAIL_INTERVAL_MS,
  LEFT_LINK_MEMORY_MS,
  UNCONFIRMED_LIFETIME_MS,
  confirmDinnerPrices,
  purgeUnconfirmedDinnerPriceSubscribers,
  subscribeToDinnerPrices,
  unsubscribeFromDinnerPrices,
} from '../../core/publicdata/dinner-price-list.js';
import type { Mail } from '../../ports/mailer.js';
import { domain } from './support.js';

const BASE = 'https://dinner.example';
const HOUR = 60 * 60 * 1000;

/** The token of the link in `mail` that starts with `path`. */
function tokenIn(mail: Mail, path: 'confirm' | 'unsubscribe'): string {
  const prefix = `${BASE}/api/v1/data/dinner-prices/${path}?token=`;
  const url = mail.text.match(/https?:\/\/\S+/g)?.find((u) => u.startsWith(prefix));
  if (!url) throw new Error(`no ${path} link in ${mail.text}`);
  return new URL(url).searchParams.get('token')!;
}

describe('dinner-price list', () => {
  let d: ReturnType<typeof domain>;
  beforeEach(() => {
    d = domain();
  });
  const subscribe = (email: string, language: 'nb' | 'en' = 'nb') => subscribeToDinnerPrices(d.deps, { email, language });
  const mailsTo = (email: string) => d.mailer.sent.filter((m) => m.to === email);

  describe('subscribe', () => {
    it('lists a new address unconfirmed (normalized) and mails it both links in its language', async () => {
      expect(await subscribe('  Kari@Example.COM ', 'en')).to.deep.equal({ ok: true, value: undefined });
      const row = await d.deps.dinnerPriceSubscribers.byEmail('kari@example.com');
      expect(row).to.include({ email: 'kari@example.com', language: 'en', confirmedAt: null });
      expect(row!.createdAt).to.deep.equal(d.clock.now());
      const [mail] = mailsTo('kari@example.com');
      expect(mail!.subject).to.equal('Confirm your dinner-price subscription');
      const confirm = tokenIn(mail!, 'confirm');
      const unsubscribe = tokenIn(mail!, 'unsubscribe');
      expect(confirm).to.not.equal(unsubscribe);
      // At least 128 bits: 22 base64url characters or more.
      expect(confirm).to.match(/^[A-Za-z0-9_-]{22,}$/);
      expect(mail!.html).to.contain(`href="${BASE}/api/v1/data/dinner-prices/confirm?token=${confirm}"`);
      expect(mail!.html).to.contain(`href="${BASE}/api/v1/data/dinner-prices/unsubscribe?token=${unsubscribe}"`);
    });

    it('writes bokmål when asked', async () => {
      await subscribe('ola@example.com', 'nb');
      expect(mailsTo('ola@example.com')[0]!.subject).to.equal('Bekreft at du vil få middagsprisene');
      expect(mailsTo('ola@example.com')[0]!.html).to.contain('<html lang="nb">');
    });

    it('refuses what is not an address with email-invalid and lists nothing', async () => {
      for (const email of ['', 'no-at-sign', 'a@b', 'two@@example.com', `${'x'.repeat(250)}@example.com`]) {
        expect(await subscribe(email)).to.deep.equal({ ok: false, error: { type: 'email-invalid' } });
      }
      expect(d.mailer.sent).to.deep.equal([]);
    });

    it('mails an unconfirmed address at most once a day, with fresh links; earlier links keep working', async () => {
      await subscribe('kari@example.com');
      d.clock.advance(CONFIRMATION_MAIL_INTERVAL_MS - 1);
      expect((await subscribe('kari@example.com', 'en')).ok).to.equal(true);
      expect(mailsTo('kari@example.com')).to.have.length(1);
      d.clock.advance(1);
      await subscribe('kari@example.com', 'en');
      const [first, second] = mailsTo('kari@example.com');
      expect(second!.subject).to.equal('Confirm your dinner-price subscription');
      expect(tokenIn(second!, 'confirm')).to.not.equal(tokenIn(first!, 'confirm'));
      expect(await confirmDinnerPrices(d.deps, { token: tokenIn(first!, 'confirm') })).to.deep.equal({ ok: true, value: 'confirmed' });
    });

    it('mails a confirmed address nothing and keeps its language', async () => {
      await subscribe('kari@example.com', 'nb');
      await confirmDinnerPrices(d.deps, { token: tokenIn(mailsTo('kari@example.com')[0]!, 'confirm') });
      d.clock.advance(3 * CONFIRMATION_MAIL_INTERVAL_MS);
      expect((await subscribe('KARI@example.com', 'en')).ok).to.equal(true);
      expect(mailsTo('kari@example.com')).to.have.length(1);
      expect((await d.deps.dinnerPriceSubscribers.byEmail('kari@example.com'))!.language).to.equal('nb');
    });

    it('starts afresh for an address left unconfirmed past seven days (not yet purged)', async () => {
      await subscribe('kari@example.com');
      const old = mailsTo('kari@example.com')[0]!;
      d.clock.advance(UNCONFIRMED_LIFETIME_MS + 1);
      await subscribe('kari@example.com');
      const fresh = mailsTo('kari@example.com')[1]!;
      expect((await d.deps.dinnerPriceSubscribers.byEmail('kari@example.com'))!.createdAt).to.deep.equal(d.clock.now());
      expect(await confirmDinnerPrices(d.deps, { token: tokenIn(old, 'confirm') })).to.deep.equal({ ok: false, error: { type: 'dinner-price-token-expired' } });
      expect(await confirmDinnerPrices(d.deps, { token: tokenIn(fresh, 'confirm') })).to.deep.equal({ ok: true, value: 'confirmed' });
    });

    it('mails once when the same new address arrives twice at the same moment', async () => {
      await Promise.all([subscribe('kari@example.com'), subscribe('kari@example.com'), subscribe('kari@example.com')]);
      expect(mailsTo('kari@example.com')).to.have.length(1);
    });
  });

  describe('confirm', () => {
    it('confirms on every click while listed', async () => {
      await subscribe('kari@example.com');
      const token = tokenIn(mailsTo('kari@example.com')[0]!, 'confirm');
      d.clock.advance(HOUR);
      expect(await confirmDinnerPrices(d.deps, { token })).to.deep.equal({ ok: true, value: 'confirmed' });
      const confirmedAt = (await d.deps.dinnerPriceSubscribers.byEmail('kari@example.com'))!.confirmedAt;
      expect(confirmedAt).to.deep.equal(d.clock.now());
      d.clock.advance(30 * 24 * HOUR);
      expect(await confirmDinnerPrices(d.deps, { token })).to.deep.equal({ ok: true, value: 'confirmed' });
      expect((await d.deps.dinnerPriceSubscribers.byEmail('kari@example.com'))!.confirmedAt).to.deep.equal(confirmedAt);
    });

    it('answers unknown for a token never issued and for an unsubscribe token', async () => {
      await subscribe('kari@example.com');
      const unknown = { ok: false, error: { type: 'dinner-price-token-unknown' } };
      expect(await confirmDinnerPrices(d.deps, { token: 'never-issued' })).to.deep.equal(unknown);
      expect(await confirmDinnerPrices(d.deps, { token: tokenIn(mailsTo('kari@example.com')[0]!, 'unsubscribe') })).to.deep.equal(unknown);
      expect((await d.deps.dinnerPriceSubscribers.byEmail('kari@example.com'))!.confirmedAt).to.equal(null);
    });

    it('answers expired once unconfirmed for over seven days, before and after the purge', async () => {
      await subscribe('a@example.com');
      await subscribe('b@example.com');
      const a = tokenIn(mailsTo('a@example.com')[0]!, 'confirm');
      const b = tokenIn(mailsTo('b@example.com')[0]!, 'confirm');
      d.clock.advance(UNCONFIRMED_LIFETIME_MS);
      expect((await confirmDinnerPrices(d.deps, { token: a })).ok).to.equal(true);
      d.clock.advance(1);
      const expired = { ok: false, error: { type: 'dinner-price-token-expired' } };
      // b is past its seven days but the purge has not run yet.
      expect(await confirmDinnerPrices(d.deps, { token: b })).to.deep.equal(expired);
      expect(await d.deps.dinnerPriceSubscribers.byEmail('b@example.com')).to.equal(null);
      expect(await confirmDinnerPrices(d.deps, { token: b })).to.deep.equal(expired);
    });

    it('answers unknown after unsubscribing', async () => {
      await subscribe('kari@example.com');
      const mail = mailsTo('kari@example.com')[0]!;
      await confirmDinnerPrices(d.deps, { token: tokenIn(mail, 'confirm') });
      await unsubscribeFromDinnerPrices(d.deps, { token: tokenIn(mail, 'unsubscribe') });
      expect(await confirmDinnerPrices(d.deps, { token: tokenIn(mail, 'confirm') })).to.deep.equal({ ok: false, error: { type: 'dinner-price-token-unknown' } });
    });
  });

  describe('unsubscribe', () => {
    it('deletes the row; a repeat answers unsubscribed; a token never issued and a confirm token answer unknown', async () => {
      await subscribe('kari@example.com');
      const mail = mailsTo('kari@example.com')[0]!;
      const unknown = { ok: false, error: { type: 'dinner-price-token-unknown' } };
      expect(await unsubscribeFromDinnerPrices(d.deps, { token: tokenIn(mail, 'confirm') })).to.deep.equal(unknown);
      expect(await unsubscribeFromDinnerPrices(d.deps, { token: 'never-issued' })).to.deep.equal(unknown);
      expect(await unsubscribeFromDinnerPrices(d.deps, { token: tokenIn(mail, 'unsubscribe') })).to.deep.equal({ ok: true, value: 'unsubscribed' });
      expect(await d.deps.dinnerPriceSubscribers.byEmail('kari@example.com')).to.equal(null);
      expect(await unsubscribeFromDinnerPrices(d.deps, { token: tokenIn(mail, 'unsubscribe') })).to.deep.equal({ ok: true, value: 'unsubscribed' });
    });

    it('lets the address subscribe again as new; the old link does not touch the new row', async () => {
      await subscribe('kari@example.com');
      const old = mailsTo('kari@example.com')[0]!;
      await unsubscribeFromDinnerPrices(d.deps, { token: tokenIn(old, 'unsubscribe') });
      await subscribe('kari@example.com');
      expect(mailsTo('kari@example.com')).to.have.length(2);
      expect(await unsubscribeFromDinnerPrices(d.deps, { token: tokenIn(old, 'unsubscribe') })).to.deep.equal({ ok: true, value: 'unsubscribed' });
      expect(await d.deps.dinnerPriceSubscribers.byEmail('kari@example.com')).to.not.equal(null);
    });

    it('answers unsubscribed for an address the purge removed', async () => {
      await subscribe('kari@example.com');
      d.clock.advance(UNCONFIRMED_LIFETIME_MS + 1);
      await purgeUnconfirmedDinnerPriceSubscribers(d.deps);
      expect(await unsubscribeFromDinnerPrices(d.deps, { token: tokenIn(mailsTo('kari@example.com')[0]!, 'unsubscribe') })).to.deep.equal({ ok: true, value: 'unsubscribed' });
    });
  });

  describe('purge', () => {
    it('deletes addresses unconfirmed for over seven days and keeps confirmed and younger ones', async () => {
      await subscribe('old@example.com');
      await subscribe('kept@example.com');
      await confirmDinnerPrices(d.deps, { token: tokenIn(mailsTo('kept@example.com')[0]!, 'confirm') });
      d.clock.advance(HOUR);
      await subscribe('young@example.com');
      d.clock.advance(UNCONFIRMED_LIFETIME_MS - HOUR + 1);
      expect(await purgeUnconfirmedDinnerPriceSubscribers(d.deps)).to.deep.equal({ expired: 1, forgotten: 0 });
      expect(await d.deps.dinnerPriceSubscribers.byEmail('old@example.com')).to.equal(null);
      expect(await d.deps.dinnerPriceSubscribers.byEmail('kept@example.com')).to.not.equal(null);
      expect(await d.deps.dinnerPriceSubscribers.byEmail('young@example.com')).to.not.equal(null);
    });

    it('forgets the links of addresses that left a year ago: they answer unknown then', async () => {
      await subscribe('kari@example.com');
      const mail = mailsTo('kari@example.com')[0]!;
      await unsubscribeFromDinnerPrices(d.deps, { token: tokenIn(mail, 'unsubscribe') });
      d.clock.advance(LEFT_LINK_MEMORY_MS);
      expect(await purgeUnconfirmedDinnerPriceSubscribers(d.deps)).to.deep.equal({ expired: 0, forgotten: 0 });
      d.clock.advance(1);
      expect(await purgeUnconfirmedDinnerPriceSubscribers(d.deps)).to.deep.equal({ expired: 0, forgotten: 2 });
      expect(await unsubscribeFromDinnerPrices(d.deps, { token: tokenIn(mail, 'unsubscribe') })).to.deep.equal({ ok: false, error: { type: 'dinner-price-token-unknown' } });
    });
  });
});
