import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { recordingPushSenders } from '../../adapters/memory/push-sender.js';
import { memoryDeps } from '../../bootstrap/deps.js';
import type { Account, AccountLanguage } from '../../core/accounts/types.js';
import { deliverPending, MAX_ATTEMPTS, retryDelayMs, TICK_MAX_WAIT_MS, TICK_QUIET_MS } from '../../core/push/delivery.js';
import { registerPushDevice, updatePushDevice } from '../../core/push/devices.js';
import type { PushEvent } from '../../ports/push-outbox.js';

/** A household of three logins (Kari nb, Ola en, Lille nb) and a named person without one; devices per login. */
async function world() {
  const clock = fixedClock(new Date('2026-05-04T09:00:00.000Z'));
  const push = recordingPushSenders('log', 'fcm');
  const deps = memoryDeps({ adminEmails: [], publicBaseUrl: 'https://dinner.example', lockout: { attempts: 3, windowSec: 900, lockSec: 300 }, referralCodesPerHousehold: 3 }, { clock, push });
  const account = async (displayName: string, language: AccountLanguage): Promise<Account> => {
    const a = await deps.accounts.create({
      id: randomUUID(),
      email: `${displayName.toLowerCase()}.${randomUUID().slice(0, 6)}@example.com`,
      emailConfirmed: true,
      displayName,
      language,
      passwordHash: null,
      securityStamp: 'stamp',
      createdAt: clock.now(),
    });
    if (a === 'email-taken') throw new Error('taken');
    return a;
  };
  const [kari, ola, lille] = [await account('Kari', 'nb'), await account('Ola', 'en'), await account('Lille', 'nb')];
  const householdId = randomUUID();
  await deps.households.create(
    { id: householdId, name: 'Hansen', timeZoneId: 'Europe/Oslo', language: 'nb', country: 'NO', dinnerTime: '18:00', chains: [], plan: 'Free', createdAt: clock.now() },
    { id: randomUUID(), displayName: 'Kari H.', role: 'Owner', accountId: kari.id, createdAt: clock.now() },
  );
  await deps.households.addMember(householdId, { id: randomUUID(), displayName: 'Ola', role: 'Adult', accountId: ola.id, createdAt: clock.now() });
  await deps.households.addMember(householdId, { id: randomUUID(), displayName: 'Lille', role: 'Junior', accountId: lille.id, createdAt: clock.now() });
  await deps.households.addMember(householdId, { id: randomUUID(), displayName: 'Baby', role: 'Junior', accountId: null, createdAt: clock.now() });
  const device = async (a: Account, token: string, provider: string | null = null) => {
    const r = await registerPushDevice(deps, a, { token, platform: 'android', provider });
    if (!r.ok) throw new Error('register failed');
  };
  await device(kari, 'kari-phone');
  await device(ola, 'ola-phone', 'fcm');
  await device(ola, 'ola-tablet');
  await device(lille, 'lille-phone');
  const planId = randomUUID();
  const record = async (event: PushEvent) => deps.pushOutbox.record({ id: randomUUID(), householdId, event, createdAt: clock.now() });
  /** Every send of every provider, as token → body, in order. */
  const sends = () => [...push.senders.values()].flatMap((s) => s.calls).map((c) => ({ token: c.target.token, body: c.message.body, outcome: c.outcome.kind }));
  const sentTo = () => sends().filter((s) => s.outcome === 'sent').map((s) => s.token).sort();
  const run = () => deliverPending(deps, { batch: 100 });
  return { deps, clock, push, kari, ola, lille, householdId, planId, record, sends, sentTo, run, log: push.senders.get('log')!, fcm: push.senders.get('fcm')! };
}

describe('push delivery (domain)', () => {
  it('member-joined: everyone with a login but the joiner, on householdNews, in each login\'s language', async () => {
    const w = await world();
    await w.record({ kind: 'member-joined', memberId: randomUUID(), displayName: 'Lille', actorAccountId: w.lille.id });
    const r = await w.run();
    expect(r).to.deep.include({ handedOver: 1, queued: 3, sent: 3 });
    expect(w.sentTo()).to.deep.equal(['kari-phone', 'ola-phone', 'ola-tablet']);
    const [toKari] = w.log.calls.filter((c) => c.target.token === 'kari-phone');
    expect(toKari!.message).to.deep.equal({ title: 'Hansen', body: 'Lille ble med i husstanden', data: { kind: 'member-joined', householdId: w.householdId }, collapseKey: null });
    expect(w.fcm.calls[0]!.message.body).to.equal('Lille joined the household');
    expect(await w.deps.pushOutbox.pending(10)).to.deep.equal([]);
    // Nothing is sent twice.
    expect(await w.run()).to.deep.include({ handedOver: 0, sent: 0 });
    expect(w.sends()).to.have.length(3);
  });

  it('list-item-added: one push per device of the household but the adder, naming the adder and the item', async () => {
    const w = await world();
    await w.record({ kind: 'list-item-added', planId: w.planId, lineId: randomUUID(), displayName: 'Melk', actorAccountId: w.kari.id });
    await w.run();
    expect(w.sentTo()).to.deep.equal(['lille-phone', 'ola-phone', 'ola-tablet']);
    const lille = w.log.calls.find((c) => c.target.token === 'lille-phone')!.message;
    expect(lille).to.deep.equal({ title: 'Hansen', body: 'Kari H. la til Melk på handlelisten', data: { kind: 'list-item-added', householdId: w.householdId, planId: w.planId }, collapseKey: null });
    expect(w.fcm.calls[0]!.message.body).to.equal('Kari H. added Melk to the shopping list');
  });

  it('ticks: held while the shopper is ticking, then one "N ticked" per device counting the others\' ticks', async () => {
    const w = await world();
    for (let i = 0; i < 3; i++) {
      await w.record({ kind: 'list-items-ticked', planId: w.planId, lineId: randomUUID(), actorAccountId: w.kari.id });
      w.clock.advance(10_000);
    }
    await w.record({ kind: 'list-items-ticked', planId: w.planId, lineId: randomUUID(), actorAccountId: w.ola.id });
    // Another week's list is a push of its own.
    await w.record({ kind: 'list-items-ticked', planId: randomUUID(), lineId: randomUUID(), actorAccountId: w.kari.id });
    expect(await w.run()).to.deep.include({ handedOver: 0, queued: 0 });
    w.clock.advance(TICK_QUIET_MS - 1);
    expect((await w.run()).handedOver).to.equal(0);
    w.clock.advance(1);
    expect(await w.run()).to.deep.include({ handedOver: 5 });
    const bodies = w.sends().map((s) => `${s.token}: ${s.body}`).sort();
    expect(bodies).to.deep.equal([
      'kari-phone: 1 vare er krysset av på handlelisten',
      'lille-phone: 1 vare er krysset av på handlelisten',
      'lille-phone: 4 varer er krysset av på handlelisten',
      'ola-phone: 1 item ticked off the shopping list',
      'ola-phone: 3 items ticked off the shopping list',
      'ola-tablet: 1 item ticked off the shopping list',
      'ola-tablet: 3 items ticked off the shopping list',
    ]);
    const four = w.log.calls.find((c) => c.message.body.startsWith('4'))!.message;
    expect(four.data).to.deep.equal({ kind: 'list-items-ticked', householdId: w.householdId, planId: w.planId, count: '4' });
    expect(four.collapseKey).to.equal(`ticked-${w.planId}`);
  });

  it('ticks that never pause are sent once the first of them is five minutes old', async () => {
    const w = await world();
    const start = w.clock.now().getTime();
    while (w.clock.now().getTime() - start < TICK_MAX_WAIT_MS) {
      await w.record({ kind: 'list-items-ticked', planId: w.planId, lineId: randomUUID(), actorAccountId: w.kari.id });
      expect((await w.run()).handedOver).to.equal(0);
      w.clock.advance(30_000);
    }
    expect((await w.run()).handedOver).to.equal(10);
    expect(w.log.calls.find((c) => c.target.token === 'lille-phone')!.message.body).to.equal('10 varer er krysset av på handlelisten');
  });

  it('receipt-reminder: the shopper alone, on reminders, and not once she has left the household', async () => {
    const w = await world();
    await w.record({ kind: 'receipt-reminder', planId: w.planId, listId: 'list-1', accountId: w.ola.id });
    await w.run();
    expect(w.sentTo()).to.deep.equal(['ola-phone', 'ola-tablet']);
    expect(w.fcm.calls[0]!.message).to.deep.include({ body: 'Remember to add the receipt from your shopping trip.', collapseKey: 'receipt-list-1' });
    const member = (await w.deps.households.memberByAccount(w.householdId, w.lille.id))!;
    await w.record({ kind: 'receipt-reminder', planId: w.planId, listId: 'list-2', accountId: w.lille.id });
    await w.deps.households.removeMember(w.householdId, member.id);
    expect(await w.run()).to.deep.include({ handedOver: 1, queued: 0 });
    expect(w.sends()).to.have.length(2);
  });

  it('week-planned: everyone with a login but the one who saved the week, on runDone, in each login\'s language', async () => {
    const w = await world();
    await updatePushDevice(w.deps, w.ola, 'ola-tablet', { listChanges: true, householdNews: true, runDone: false });
    await w.record({ kind: 'week-planned', planId: w.planId, weekStart: '2026-11-23', dinners: 5, actorAccountId: w.kari.id });
    await w.run();
    expect(w.sentTo()).to.deep.equal(['lille-phone', 'ola-phone']);
    expect(w.log.calls.find((c) => c.target.token === 'lille-phone')!.message).to.deep.include({ title: 'Hansen', body: 'Kari H. har planlagt uke 48: 5 middager', collapseKey: `planned-${w.planId}` });
    expect(w.fcm.calls[0]!.message.body).to.equal('Kari H. planned week 48: 5 dinners');
    expect(w.fcm.calls[0]!.message.data).to.deep.equal({ kind: 'week-planned', householdId: w.householdId, planId: w.planId });
  });

  it('a switch off keeps that kind away: at hand-over, and when turned off before the send', async () => {
    const w = await world();
    await updatePushDevice(w.deps, w.ola, 'ola-tablet', { listChanges: false, householdNews: true, runDone: true });
    await w.record({ kind: 'list-item-added', planId: w.planId, lineId: randomUUID(), displayName: 'Egg', actorAccountId: w.kari.id });
    await w.record({ kind: 'member-joined', memberId: randomUUID(), displayName: 'Per', actorAccountId: randomUUID() });
    expect(await w.run()).to.deep.include({ queued: 6, sent: 6 });
    expect(w.sends().filter((s) => s.token === 'ola-tablet').map((s) => s.body)).to.deep.equal(['Per joined the household']);
    // Queued while on, turned off before it went out: dropped.
    w.log.answer = () => ({ kind: 'retry', afterMs: null, reason: 'HTTP 503' });
    await w.record({ kind: 'member-joined', memberId: randomUUID(), displayName: 'Eva', actorAccountId: randomUUID() });
    await w.run();
    await updatePushDevice(w.deps, w.kari, 'kari-phone', { listChanges: true, householdNews: false, runDone: true });
    w.log.answer = () => ({ kind: 'sent' });
    w.clock.advance(retryDelayMs(1, null));
    const r = await w.run();
    expect(r).to.deep.include({ sent: 2, dropped: 1 });
    expect(w.sends().filter((s) => s.token === 'kari-phone' && s.outcome === 'sent').map((s) => s.body)).to.deep.equal(['Per ble med i husstanden']);
  });

  it('retries with exponential backoff and Retry-After, then gives up after the last attempt', async () => {
    const w = await world();
    await w.deps.pushDevices.forget('ola-tablet');
    await w.deps.pushDevices.forget('lille-phone');
    await w.deps.pushDevices.forget('kari-phone');
    w.fcm.answer = () => ({ kind: 'retry', afterMs: null, reason: 'HTTP 503' });
    await w.record({ kind: 'list-item-added', planId: w.planId, lineId: randomUUID(), displayName: 'Egg', actorAccountId: w.kari.id });
    expect(await w.run()).to.deep.include({ retried: 1, sent: 0 });
    const due = async () => (await w.deps.pushDeliveries.ofHousehold(w.householdId))[0]!;
    expect(await due()).to.deep.include({ attempts: 1, state: 'pending', lastError: 'HTTP 503', nextAttemptAt: new Date(w.clock.now().getTime() + 30_000) });
    // Not due yet: nothing is sent.
    w.clock.advance(29_999);
    await w.run();
    expect(w.fcm.calls).to.have.length(1);
    w.clock.advance(1);
    await w.run();
    expect(await due()).to.deep.include({ attempts: 2, nextAttemptAt: new Date(w.clock.now().getTime() + 60_000) });
    // A provider's longer Retry-After wins over the backoff.
    w.fcm.answer = () => ({ kind: 'retry', afterMs: 600_000, reason: 'HTTP 429' });
    w.clock.advance(60_000);
    await w.run();
    expect(await due()).to.deep.include({ attempts: 3, nextAttemptAt: new Date(w.clock.now().getTime() + 600_000) });
    expect([1, 2, 3, 4, 7, 8, 20].map((n) => retryDelayMs(n, null))).to.deep.equal([30_000, 60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000]);
    w.fcm.answer = () => ({ kind: 'retry', afterMs: null, reason: 'HTTP 500' });
    let last = await w.run();
    for (let i = 0; i < 20 && (await due()).state === 'pending'; i++) {
      w.clock.advance(3_600_000 * 6);
      last = await w.run();
    }
    expect(await due()).to.deep.include({ state: 'failed', attempts: MAX_ATTEMPTS, lastError: `gave up after ${MAX_ATTEMPTS} attempts: HTTP 500` });
    expect(last.failed).to.have.length(1);
    expect(w.fcm.calls).to.have.length(MAX_ATTEMPTS);
  });

  it('a token the provider calls gone deletes the device, and its queued pushes go with it', async () => {
    const w = await world();
    w.fcm.answer = () => ({ kind: 'gone' });
    await w.record({ kind: 'list-item-added', planId: w.planId, lineId: randomUUID(), displayName: 'Egg', actorAccountId: w.kari.id });
    await w.record({ kind: 'member-joined', memberId: randomUUID(), displayName: 'Per', actorAccountId: randomUUID() });
    const r = await w.run();
    expect(r.gone).to.equal(1);
    expect(await w.deps.pushDevices.get(w.ola.id, 'ola-phone')).to.equal(null);
    expect(w.fcm.calls).to.have.length(1);
    expect(w.sentTo()).to.deep.equal(['kari-phone', 'lille-phone', 'lille-phone', 'ola-tablet', 'ola-tablet']);
  });

  it('a device deleted or handed to another login before the send gets nothing', async () => {
    const w = await world();
    w.log.answer = () => ({ kind: 'retry', afterMs: null, reason: 'timeout' });
    w.fcm.answer = () => ({ kind: 'retry', afterMs: null, reason: 'timeout' });
    await w.record({ kind: 'list-item-added', planId: w.planId, lineId: randomUUID(), displayName: 'Egg', actorAccountId: w.kari.id });
    await w.run();
    expect(w.sends()).to.have.length(3);
    await w.deps.pushDevices.delete(w.ola.id, 'ola-phone');
    // Kari (the adder) takes over Lille's phone: Lille's queued push is not for Kari.
    await registerPushDevice(w.deps, w.kari, { token: 'lille-phone', platform: 'android', provider: null });
    w.log.answer = () => ({ kind: 'sent' });
    w.clock.advance(30_000);
    const r = await w.run();
    expect(r).to.deep.include({ sent: 1, dropped: 1 });
    expect(w.sentTo()).to.deep.equal(['ola-tablet']);
  });

  it('a rejected message is not retried; a provider not configured here is given up', async () => {
    const w = await world();
    w.fcm.answer = () => ({ kind: 'rejected', reason: 'HTTP 400 InvalidArgument' });
    await w.deps.pushDevices.register({ token: 'odd-one', accountId: w.lille.id, platform: 'ios', provider: 'apns', at: w.clock.now() }, { listChanges: true, householdNews: true, runDone: true, reminders: true });
    await w.record({ kind: 'list-item-added', planId: w.planId, lineId: randomUUID(), displayName: 'Egg', actorAccountId: w.kari.id });
    const r = await w.run();
    expect(r.failed.map((f) => f.error).sort()).to.deep.equal(['push provider apns is not configured', 'rejected: HTTP 400 InvalidArgument']);
    w.clock.advance(86_400_000);
    await w.run();
    expect(w.fcm.calls).to.have.length(1);
  });

  it('a hand-over that fails leaves its entries pending and holds up neither the others nor the sends', async () => {
    const w = await world();
    for (let i = 0; i < 4; i++) await w.record({ kind: 'list-items-ticked', planId: w.planId, lineId: randomUUID(), actorAccountId: w.kari.id });
    await w.record({ kind: 'member-joined', memberId: randomUUID(), displayName: 'Bad', actorAccountId: randomUUID() });
    await w.record({ kind: 'member-joined', memberId: randomUUID(), displayName: 'Per', actorAccountId: randomUUID() });
    // Entries of one instant are ordered by id: find Bad's by what it says.
    const bad = (await w.deps.pushOutbox.pending(10)).find((e) => e.event.kind === 'member-joined' && e.event.displayName === 'Bad');
    const real = w.deps.pushDeliveries;
    const deps = { ...w.deps, pushDeliveries: { ...real, handOver: (ids: readonly string[], d: Parameters<typeof real.handOver>[1], at: Date) => (ids.includes(bad!.id) ? Promise.reject(new Error('boom')) : real.handOver(ids, d, at)) } };
    // batch 2: the four held ticks at the head of the outbox do not keep Per's join waiting.
    const r = await deliverPending(deps, { batch: 2 });
    expect(r.handOverFailed).to.deep.equal([{ entryIds: [bad!.id], error: 'boom' }]);
    expect(r).to.deep.include({ handedOver: 1, sent: 2 });
    expect((await w.deps.pushOutbox.pending(10)).map((e) => e.id)).to.include(bad!.id);
  });

  it('two workers running at once send each message to each device once', async () => {
    const w = await world();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The first sends hang until both workers are under way.
    w.log.answer = async () => {
      await gate;
      return { kind: 'sent' };
    };
    await w.record({ kind: 'list-item-added', planId: w.planId, lineId: randomUUID(), displayName: 'Egg', actorAccountId: w.kari.id });
    await w.record({ kind: 'member-joined', memberId: randomUUID(), displayName: 'Per', actorAccountId: randomUUID() });
    const both = Promise.all([w.run(), w.run()]);
    setTimeout(release, 20);
    const [a, b] = await both;
    expect(a.handedOver + b.handedOver).to.equal(2);
    expect(a.sent + b.sent).to.equal(7);
    expect(w.sentTo()).to.deep.equal(['kari-phone', 'lille-phone', 'lille-phone', 'ola-phone', 'ola-phone', 'ola-tablet', 'ola-tablet']);
  });
});
