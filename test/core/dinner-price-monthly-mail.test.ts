import { expect } from 'chai';
import { dinnerPricesCsv, dinnerPricesJson } from '../../core/dinnerprices/publish.js';
import type { HouseholdType, PublishedMonth } from '../../core/dinnerprices/types.js';
import { confirmDinnerPrices, subscribeToDinnerPrices, unsubscribeFromDinnerPrices } from '../../core/publicdata/dinner-price-list.js';
import { mailDinnerPrices, REFUSED_IN_A_ROW } from '../../core/publicdata/dinner-price-monthly-mail.js';
import type { Mail, Mailer } from '../../ports/mailer.js';
import { domain } from './support.js';

const BASE = 'https://dinner.example';

/** The token of the link in `mail` that starts with `path`. */
function tokenIn(mail: Mail, path: 'confirm' | 'unsubscribe'): string {
  const prefix = `${BASE}/api/v1/data/dinner-prices/${path}?token=`;
  const url = mail.text.match(/https?:\/\/\S+/g)?.find((u) => u.startsWith(prefix));
  if (!url) throw new Error(`no ${path} link in ${mail.text}`);
  return new URL(url).searchParams.get('token')!;
}

const row = (month: string, householdType: HouseholdType, median: number): PublishedMonth => ({
  month,
  householdType,
  medianWeekPrice: median,
  p10WeekPrice: median - 100.5,
  p90WeekPrice: median + 150.25,
  pricePerPortion: Math.round((median / 7 / { single: 1, couple: 2, family: 3 }[householdType]) * 100) / 100,
  coverage: 0.95,
  chains: 2,
  weeksMeasured: 4,
  recipeSetVersion: 'set-1',
});
const MARCH = [row('2026-03', 'single', 812.4), row('2026-03', 'couple', 1624.8), row('2026-03', 'family', 2437.2)];
const APRIL = [row('2026-04', 'single', 850), row('2026-04', 'couple', 1700)];

describe('the monthly dinner-price mail', () => {
  let d: ReturnType<typeof domain>;
  beforeEach(() => {
    d = domain();
    // 20 March, Oslo: the list is being joined while March runs.
    d.clock.set(new Date('2026-03-20T12:00:00.000Z'));
  });
  const run = (batch?: number, mailer: Mailer = d.mailer) => mailDinnerPrices({ ...d.deps, mailer }, batch === undefined ? {} : { batch });
  const monthlyTo = (email: string) => d.mailer.sent.filter((m) => m.to === email && !m.subject.startsWith('Bekreft') && !m.subject.startsWith('Confirm'));
  async function publish(rows: PublishedMonth[]) {
    await d.deps.dinnerPrices.savePublication({ generatedAt: d.clock.now(), json: dinnerPricesJson(rows, d.clock.now()), csv: dinnerPricesCsv(rows) });
  }
  /** Subscribes `email` and clicks its confirm link now; answers the confirmation mail. */
  async function confirmed(email: string, language: 'nb' | 'en' = 'nb'): Promise<Mail> {
    await subscribeToDinnerPrices(d.deps, { email, language });
    const mail = d.mailer.sent.findLast((m) => m.to === email)!;
    expect(await confirmDinnerPrices(d.deps, { token: tokenIn(mail, 'confirm') })).to.deep.equal({ ok: true, value: 'confirmed' });
    return mail;
  }

  it('sends nothing before the first publication', async () => {
    await confirmed('kari@example.com');
    expect(await run()).to.deep.equal({ month: null, sent: 0, claimedElsewhere: 0, refused: [], gaveUp: false });
    expect(monthlyTo('kari@example.com')).to.deep.equal([]);
  });

  it('mails the newest published month once to each address confirmed before it ended, in its language, with the figures and a working unsubscribe link', async () => {
    await confirmed('kari@example.com', 'nb');
    await confirmed('john@example.com', 'en');
    await subscribeToDinnerPrices(d.deps, { email: 'unconfirmed@example.com', language: 'nb' });
    // 1 April 01:30 in Oslo: March has ended; a confirmation now comes too late for March's figures.
    d.clock.set(new Date('2026-03-31T23:30:00.000Z'));
    await confirmed('april@example.com');
    d.clock.set(new Date('2026-04-01T04:12:00.000Z'));
    await publish([row('2026-02', 'single', 700), ...MARCH]);
    expect(await run()).to.deep.include({ month: '2026-03', sent: 2, claimedElsewhere: 0, refused: [], gaveUp: false });

    const [nb] = monthlyTo('kari@example.com');
    expect(monthlyTo('kari@example.com')).to.have.length(1);
    expect(nb!.subject).to.equal('Middagsprisene for mars 2026');
    // NOK as each language writes it (Intl: a no-break space between the amount and its currency, and in thousands in nb).
    expect(nb!.text.replaceAll('\u00a0', ' ')).to.contain('Én voksen\n  Median ukepris: 812,40 kr\n  Ukepris p10–p90: 711,90 kr – 962,65 kr\n  Pris per porsjon: 116,06 kr');
    expect(nb!.text.replaceAll('\u00a0', ' ')).to.contain('To voksne og to barn\n  Median ukepris: 2 437,20 kr');
    expect(nb!.text).to.not.contain('2026-02');
    expect(nb!.html).to.contain('<html lang="nb">');
    expect(nb!.html).to.contain('<th style="padding:4px 12px 4px 0;text-align:left">To voksne</th>');
    expect(nb!.html).to.contain(`<a href="${BASE}/api/v1/data/dinner-prices.csv">`);

    const [en] = monthlyTo('john@example.com');
    expect(en!.subject).to.equal('Dinner prices for March 2026');
    expect(en!.text.replaceAll('\u00a0', ' ')).to.contain('Two adults\n  Median week price: NOK 1,624.80\n  Week price p10–p90: NOK 1,524.30 – NOK 1,775.05\n  Price per portion: NOK 116.06');
    expect(en!.html).to.contain(`<a href="${BASE}/api/v1/data/dinner-prices/unsubscribe?token=${tokenIn(en!, 'unsubscribe')}">Unsubscribe</a>`);

    expect(monthlyTo('unconfirmed@example.com')).to.deep.equal([]);
    expect(monthlyTo('april@example.com')).to.deep.equal([]);
    // Each mail's unsubscribe link is its own and works.
    expect(tokenIn(nb!, 'unsubscribe')).to.not.equal(tokenIn(en!, 'unsubscribe'));
    expect(await unsubscribeFromDinnerPrices(d.deps, { token: tokenIn(en!, 'unsubscribe') })).to.deep.equal({ ok: true, value: 'unsubscribed' });
    expect(await d.deps.dinnerPriceSubscribers.byEmail('john@example.com')).to.equal(null);

    // A later run finds everything sent.
    const before = d.mailer.sent.length;
    d.clock.advance(3_600_000);
    expect(await run()).to.deep.include({ month: '2026-03', sent: 0, claimedElsewhere: 0 });
    expect(d.mailer.sent).to.have.length(before);
    const kari = await d.deps.dinnerPriceSubscribers.byEmail('kari@example.com');
    expect(await d.deps.dinnerPriceSubscribers.monthlyMailsOf(kari!.id)).to.deep.equal([
      { month: '2026-03', claimedAt: new Date('2026-04-01T04:12:00.000Z'), sentAt: new Date('2026-04-01T04:12:00.000Z') },
    ]);
  });

  it('mails the next month to everyone still listed, also those who confirmed during it; nothing to those who left', async () => {
    await confirmed('kari@example.com');
    const leaving = await confirmed('ola@example.com');
    d.clock.set(new Date('2026-04-01T04:12:00.000Z'));
    await publish(MARCH);
    await run();
    await confirmed('april@example.com', 'en');
    await unsubscribeFromDinnerPrices(d.deps, { token: tokenIn(leaving, 'unsubscribe') });
    d.clock.set(new Date('2026-05-01T04:12:00.000Z'));
    await publish([...MARCH, ...APRIL]);
    expect(await run()).to.deep.include({ month: '2026-04', sent: 2 });
    expect(monthlyTo('kari@example.com').map((m) => m.subject)).to.deep.equal(['Middagsprisene for mars 2026', 'Middagsprisene for april 2026']);
    expect(monthlyTo('april@example.com').map((m) => m.subject)).to.deep.equal(['Dinner prices for April 2026']);
    expect(monthlyTo('april@example.com')[0]!.text).to.not.contain('Two adults and two children');
    expect(monthlyTo('ola@example.com').map((m) => m.subject)).to.deep.equal(['Middagsprisene for mars 2026']);
  });

  it('goes through a large list a page at a time, and leaves addresses another run claimed to it', async () => {
    const emails = Array.from({ length: 7 }, (_, i) => `p${i}@example.com`);
    for (const e of emails) await confirmed(e);
    d.clock.set(new Date('2026-04-01T04:12:00.000Z'));
    await publish(MARCH);
    // Another process claimed one a moment ago (and is mailing it).
    const taken = (await d.deps.dinnerPriceSubscribers.byEmail('p3@example.com'))!;
    expect(await d.deps.dinnerPriceSubscribers.claimMonthlyMail(taken.id, '2026-03', { at: d.clock.now(), tokens: [] })).to.equal(true);
    expect(await run(2)).to.deep.include({ sent: 6, claimedElsewhere: 0 });
    for (const e of emails) expect(monthlyTo(e), e).to.have.length(e === 'p3@example.com' ? 0 : 1);
  });

  it('of two runs at once, each address is mailed by exactly one', async () => {
    const emails = Array.from({ length: 9 }, (_, i) => `q${i}@example.com`);
    for (const e of emails) await confirmed(e);
    d.clock.set(new Date('2026-04-01T04:12:00.000Z'));
    await publish(MARCH);
    const [a, b] = await Promise.all([run(2), run(3)]);
    expect(a.sent + b.sent).to.equal(emails.length);
    expect(a.claimedElsewhere + b.claimedElsewhere).to.be.greaterThan(0);
    for (const e of emails) expect(monthlyTo(e), e).to.have.length(1);
  });

  it('gives a refused mail back for a later run, and stops after refusals in a row', async () => {
    const emails = Array.from({ length: REFUSED_IN_A_ROW + 2 }, (_, i) => `r${i}@example.com`);
    for (const e of emails) await confirmed(e);
    d.clock.set(new Date('2026-04-01T04:12:00.000Z'));
    await publish(MARCH);
    // The mail server is down.
    const down = await run(undefined, { send: async () => Promise.reject(new Error('421 service not available')) });
    expect(down).to.deep.include({ sent: 0, gaveUp: true });
    expect(down.refused).to.have.length(REFUSED_IN_A_ROW);
    // Back up, but it refuses one address: that one is tried again by the next run, the others go.
    const partly = await run(undefined, { send: async (m) => (m.to === 'r1@example.com' ? Promise.reject(new Error('450 mailbox busy')) : d.mailer.send(m)) });
    expect(partly).to.deep.include({ sent: emails.length - 1, gaveUp: false });
    expect(partly.refused.map((r) => r.subscriberId)).to.have.length(1);
    expect(await run()).to.deep.include({ sent: 1, refused: [] });
    for (const e of emails) expect(monthlyTo(e), e).to.have.length(1);
  });
});
