import { expect } from 'chai';
import ICAL from 'ical.js';
import { httpSuite } from '../support/http-suite.js';
import { TEST_RATE_LIMITS } from '../support/server.js';
import { Client } from '../support/client.js';

const PUBLIC = 'https://dinner.example';
// Wednesday 25 March 2026, 10:00 in Oslo: the window runs 11 March to 6 May, across the change to summer time on 29 March.
const NOW = new Date('2026-03-25T09:00:00.000Z');

const recipe = (title: string, totalMinutes: number | null = 40) => ({
  title, servings: 4, activeMinutes: null, totalMinutes, steps: ['Lag maten'], ingredients: [{ displayName: 'Poteter', quantity: 1, unit: 'kg', optional: false, baseRecipeId: null, reference: null }],
});
const eventBody = (date: string, eventType: string, extra: Record<string, unknown> = {}) => ({
  date, eventType, servingTime: null, availableCookingMinutes: null, notes: null, guests: null, memberAttendance: null, ...extra,
});

const COMMA_TITLE = 'Fisk, poteter; og saus \\ med dill';
const NORWEGIAN_TITLE = 'Bløtkake med jordbær 🍓';
const LONG_TITLE = 'Langtidsstekt lammelår med rosmarin, hvitløk og ovnsbakte rotgrønnsaker – gulrot, pastinakk, kålrot og søtpotet – servert med rødvinssaus og grønne erter 🥕🍷';

interface ParsedEvent {
  uid: string;
  summary: string;
  start: string;
  end: string;
}

/** The feed through a real RFC 5545 parser. */
function parse(ics: string): { name: string; events: ParsedEvent[] } {
  const cal = new ICAL.Component(ICAL.parse(ics) as unknown[]);
  const events = cal.getAllSubcomponents('vevent').map((c) => {
    const e = new ICAL.Event(c);
    return { uid: e.uid, summary: e.summary, start: e.startDate.toJSDate().toISOString(), end: e.endDate.toJSDate().toISOString() };
  });
  // RFC 5545 §3.8.8.2: an X- property's value is TEXT; ical.js keeps unknown properties raw, so unescape it here.
  const text = ICAL.design.icalendar.value['text'] as { fromICAL(raw: string): string };
  return { name: text.fromICAL(String(cal.getFirstPropertyValue('x-wr-calname'))), events: events.sort((a, b) => a.start.localeCompare(b.start)) };
}

const feedPath = (url: string) => new URL(url).pathname;

httpSuite('dinner calendar', { now: NOW, env: { PUBLIC_BASE_URL: PUBLIC } }, (server) => {
  const { log } = server;

  async function withDinners() {
    const hh = await server.household('Familien Ødegård, Oslo');
    const { owner, base } = hh;
    const dish = async (date: string, title: string, totalMinutes: number | null = 40) => {
      const r = (await owner.post(`${base}/recipes`, recipe(title, totalMinutes))).json;
      const plan = (await owner.put(`${base}/plans/week/${date}`)).json;
      const set = await owner.put(`${base}/plans/${plan.id}/days/${date}`, { recipeId: r.id, portions: null, note: null });
      expect(set.status, set.text).to.equal(200);
      return { planId: plan.id as string, recipeId: r.id as string };
    };
    return { ...hh, dish };
  }
  const link = async (client: Client, base: string) => {
    const res = await client.get(`${base}/dinner-calendar`);
    expect(res.status, res.text).to.equal(200);
    return res.json as { url: string | null; webcalUrl: string | null };
  };
  const anonymous = () => server.client();

  it('any member reads one link, made on the first read; only adults reset or turn it off', async () => {
    const { owner, base, join } = await withDinners();
    const [a, b] = await Promise.all([link(owner, base), link(owner, base)]);
    expect(a).to.deep.equal(b);
    expect(a.url).to.match(/^https:\/\/dinner\.example\/api\/v1\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(a.webcalUrl).to.equal(a.url!.replace(/^https:/, 'webcal:'));
    const junior = await join('Junior');
    expect(await link(junior.client, base)).to.deep.equal(a);
    const reset = await junior.client.post(`${base}/dinner-calendar/reset`);
    expect([reset.status, reset.json.code]).to.deep.equal([403, 'adults_only']);
    expect((await junior.client.delete(`${base}/dinner-calendar`)).status).to.equal(403);
    const adult = await join('Adult');
    expect((await adult.client.post(`${base}/dinner-calendar/reset`)).status).to.equal(200);
    const { client: stranger } = await server.signedIn('Stranger');
    expect((await stranger.get(`${base}/dinner-calendar`)).json.code).to.equal('household_not_found');
    expect((await anonymous().get(`${base}/dinner-calendar`)).status).to.equal(401);
  });

  it('serves valid iCalendar: one event per dinner cooked at home in the window, start of cooking to serving', async () => {
    const { owner, base, dish } = await withDinners();
    await dish('2026-03-10', 'For tidlig'); // 15 days back: outside
    await dish('2026-03-11', 'Første dag'); // 14 days back
    await dish('2026-03-27', 'Restaurantmat'); // eating out that day
    await owner.post(`${base}/events`, eventBody('2026-03-27', 'EatingOut'));
    await dish('2026-03-28', COMMA_TITLE, 40); // winter time: UTC+1
    await dish('2026-03-29', NORWEGIAN_TITLE, 90); // summer time from 02:00: UTC+2
    await dish('2026-03-30', LONG_TITLE, null); // no time: 45 minutes
    await owner.post(`${base}/events`, eventBody('2026-03-30', 'Activity', { servingTime: '17:15' }));
    await dish('2026-05-06', 'Siste dag'); // 42 days ahead
    await dish('2026-05-07', 'For sent'); // outside

    const url = (await link(owner, base)).url!;
    const res = await anonymous().get(feedPath(url));
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/calendar; charset=utf-8');
    expect(res.headers.get('cache-control')).to.equal('private, max-age=300');

    // Every line ends in CRLF and holds at most 75 octets; folds never split a character.
    expect(res.text.endsWith('\r\n')).to.equal(true);
    const lines = res.text.slice(0, -2).split('\r\n');
    for (const line of lines) {
      expect(line).to.not.include('\n');
      expect(Buffer.byteLength(line, 'utf8'), line).to.be.at.most(75);
      expect(line).to.not.include('\uFFFD');
    }
    expect(lines.filter((l) => l.startsWith(' ')).length).to.be.greaterThan(1); // the long title was folded
    expect(lines).to.include.members(['BEGIN:VCALENDAR', 'VERSION:2.0', 'CALSCALE:GREGORIAN', 'END:VCALENDAR']);
    expect(lines.some((l) => l.startsWith('PRODID:'))).to.equal(true);
    expect(lines.filter((l) => l.startsWith('DTSTAMP:'))).to.have.length(5);
    expect(lines).to.include(`SUMMARY:${COMMA_TITLE.replace(/\\/g, '\\\\').replace(/([,;])/g, '\\$1')}`);

    const cal = parse(res.text);
    expect(cal.name).to.equal('Familien Ødegård, Oslo');
    expect(cal.events.map((e) => [e.summary, e.start, e.end])).to.deep.equal([
      ['Første dag', '2026-03-11T16:20:00.000Z', '2026-03-11T17:00:00.000Z'],
      [COMMA_TITLE, '2026-03-28T16:20:00.000Z', '2026-03-28T17:00:00.000Z'],
      [NORWEGIAN_TITLE, '2026-03-29T14:30:00.000Z', '2026-03-29T16:00:00.000Z'],
      [LONG_TITLE, '2026-03-30T14:30:00.000Z', '2026-03-30T15:15:00.000Z'],
      ['Siste dag', '2026-05-06T15:20:00.000Z', '2026-05-06T16:00:00.000Z'],
    ]);
  });

  it('keeps a day\'s UID when its dish changes; each date has its own', async () => {
    const { owner, base, dish } = await withDinners();
    const first = await dish('2026-03-26', 'Taco');
    await dish('2026-03-27', 'Pizza');
    const url = (await link(owner, base)).url!;
    const before = parse((await anonymous().get(feedPath(url))).text).events;
    expect(new Set(before.map((e) => e.uid)).size).to.equal(2);
    const other = (await owner.post(`${base}/recipes`, recipe('Fiskesuppe'))).json;
    await owner.put(`${base}/plans/${first.planId}/days/2026-03-26`, { recipeId: other.id, portions: null, note: null });
    const after = parse((await anonymous().get(feedPath(url))).text).events;
    expect(after.map((e) => [e.uid, e.summary])).to.deep.equal([
      [before[0]!.uid, 'Fiskesuppe'],
      [before[1]!.uid, 'Pizza'],
    ]);
    // Another household's dinner on the same date has another UID.
    const theirs = await withDinners();
    await theirs.dish('2026-03-26', 'Taco');
    const theirEvents = parse((await anonymous().get(feedPath((await link(theirs.owner, theirs.base)).url!))).text).events;
    expect(theirEvents[0]!.uid).to.not.equal(before[0]!.uid);
  });

  it('reset and turn-off: old, turned-off, unknown and malformed tokens answer the same 404', async () => {
    const { owner, base, dish } = await withDinners();
    await dish('2026-03-26', 'Taco');
    const old = (await link(owner, base)).url!;
    const reset = await owner.post(`${base}/dinner-calendar/reset`);
    expect(reset.status, reset.text).to.equal(200);
    expect(reset.json.url).to.not.equal(old);
    expect(await link(owner, base)).to.deep.equal(reset.json);
    expect((await anonymous().get(feedPath(reset.json.url))).status).to.equal(200);

    const replaced = await anonymous().get(feedPath(old));
    expect((await owner.delete(`${base}/dinner-calendar`)).status).to.equal(204);
    expect(await link(owner, base)).to.deep.equal({ url: null, webcalUrl: null });
    const off = await anonymous().get(feedPath(reset.json.url));
    const unknown = await anonymous().get(`/api/v1/calendar/${'A'.repeat(43)}.ics`);
    const malformed = await anonymous().get('/api/v1/calendar/not-a-token!.ics');
    const short = await anonymous().get('/api/v1/calendar/abc.ics');
    const body = (r: { json: Record<string, unknown> }) => ({ status: r.json['status'], code: r.json['code'], title: r.json['title'], detail: r.json['detail'], type: r.json['type'] });
    for (const r of [replaced, off, unknown, malformed, short]) {
      expect(r.status).to.equal(404);
      expect(r.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(body(r)).to.deep.equal(body(replaced));
    }
    expect(replaced.json.code).to.equal('calendar_not_found');

    const again = await owner.post(`${base}/dinner-calendar/reset`);
    expect(again.json.url).to.match(/\.ics$/);
    expect((await anonymous().get(feedPath(again.json.url))).status).to.equal(200);
  });

  it('never writes a feed\'s token to the request log', async () => {
    const { owner, base } = await withDinners();
    const url = (await link(owner, base)).url!;
    const token = /calendar\/([^/]+)\.ics$/.exec(url)![1]!;
    expect((await anonymous().get(feedPath(url))).status).to.equal(200);
    const requests = log.lines.filter((l) => l['msg'] === 'request' && String(l['path']).startsWith('/api/v1/calendar/'));
    expect(requests.map((l) => l['path'])).to.include('/api/v1/calendar/{token}.ics');
    expect(JSON.stringify(log.lines)).to.not.include(token);
  });

  it('is documented in the OpenAPI document as a public route counted per IP', async () => {
    const doc = (await anonymous().get('/api/v1/openapi.json')).json;
    const op = doc.paths['/api/v1/calendar/{token}.ics'].get;
    expect(op.security).to.deep.equal([]);
    expect(op['x-rate-limit-class']).to.equal('anonymous-per-ip');
    expect(Object.keys(op.responses)).to.include.members(['200', '404', '429']);
    expect(doc.paths['/api/v1/households/{householdId}/dinner-calendar/reset'].post.description).to.match(/turned-off link is turned on again/);
  });
});

httpSuite('dinner calendar rate limit', { env: { RATE_LIMITS: TEST_RATE_LIMITS.replace('anonymous-per-ip=10000/60', 'anonymous-per-ip=3/60') }, now: NOW }, (server) => {

  it('counts the feed per client IP: past the limit 429 with Retry-After', async () => {
    const { owner, base } = await server.household();
    const url = new URL((await owner.get(`${base}/dinner-calendar`)).json.url).pathname;
    const reader = server.client();
    for (let i = 0; i < 3; i++) expect((await reader.get(url)).status).to.equal(200);
    const limited = await reader.get(url);
    expect([limited.status, limited.json.code]).to.deep.equal([429, 'rate_limited']);
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
    // Unknown tokens count too: guessing is slowed the same way.
    expect((await reader.get(`/api/v1/calendar/${'B'.repeat(43)}.ics`)).status).to.equal(429);
  });
});
