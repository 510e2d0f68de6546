import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { recordingPushSenders } from '../../adapters/memory/push-sender.js';
import { memoryDeps } from '../../bootstrap/deps.js';
import type { Account } from '../../core/accounts/types.js';
import { deletePushDevice, getPushDevice, registerPushDevice, updatePushDevice } from '../../core/push/devices.js';
import { isPushToken, PUSH_TOKEN_MAX } from '../../core/push/types.js';
import { value } from './support.js';

async function world() {
  const clock = fixedClock(new Date('2026-05-04T09:00:00.000Z'));
  const deps = memoryDeps(
    { adminEmails: [], publicBaseUrl: 'https://dinner.example', lockout: { attempts: 3, windowSec: 900, lockSec: 300 }, referralCodesPerHousehold: 3 },
    { clock, push: recordingPushSenders('log', 'fcm') },
  );
  const account = async (displayName: string): Promise<Account> => {
    const a = await deps.accounts.create({ id: randomUUID(), email: null, emailConfirmed: false, displayName, language: 'nb', passwordHash: null, securityStamp: 's', createdAt: clock.now() });
    if (a === 'email-taken') throw new Error('taken');
    return a;
  };
  return { deps, clock, kari: await account('Kari'), ola: await account('Ola') };
}


describe('push devices (domain)', () => {
  it('registers with every switch on; provider null is the configured default; an unknown provider is refused', async () => {
    const { deps, kari } = await world();
    const d = value(await registerPushDevice(deps, kari, { token: 'tok-1', platform: 'ios', provider: null }));
    expect(d).to.deep.include({ token: 'tok-1', accountId: kari.id, platform: 'ios', provider: 'log', listChanges: true, householdNews: true, runDone: true, reminders: true });
    expect(value(await registerPushDevice(deps, kari, { token: 'tok-2', platform: 'android', provider: 'fcm' })).provider).to.equal('fcm');
    expect(await registerPushDevice(deps, kari, { token: 'tok-3', platform: 'android', provider: 'apns' })).to.deep.equal({
      ok: false,
      error: { type: 'push-provider-unknown', provider: 'apns', known: ['fcm', 'log'] },
    });
    expect(await getPushDevice(deps, kari, 'tok-3')).to.deep.equal({ ok: false, error: { type: 'push-device-not-found' } });
  });

  it("is idempotent per token: the caller's own is marked seen and keeps its switches; another login's is handed over", async () => {
    const { deps, clock, kari, ola } = await world();
    value(await registerPushDevice(deps, kari, { token: 'tok', platform: 'android', provider: null }));
    value(await updatePushDevice(deps, kari, 'tok', { listChanges: false, householdNews: false, runDone: false, reminders: false }));
    clock.advance(60_000);
    const seen = value(await registerPushDevice(deps, kari, { token: 'tok', platform: 'android', provider: 'fcm' }));
    expect(seen).to.deep.include({ provider: 'fcm', listChanges: false, reminders: false, lastSeenAt: clock.now() });
    clock.advance(60_000);
    const moved = value(await registerPushDevice(deps, ola, { token: 'tok', platform: 'android', provider: null }));
    expect(moved).to.deep.include({ accountId: ola.id, provider: 'log', listChanges: true, householdNews: true, runDone: true, reminders: true, lastSeenAt: clock.now() });
    expect(await getPushDevice(deps, kari, 'tok')).to.deep.equal({ ok: false, error: { type: 'push-device-not-found' } });
    expect(await deps.pushDevices.ofAccounts([kari.id, ola.id])).to.have.length(1);
  });

  it('sets switches; reminders left out or null keeps its value; only on the caller\'s own token', async () => {
    const { deps, kari, ola } = await world();
    value(await registerPushDevice(deps, kari, { token: 'tok', platform: 'ios', provider: null }));
    const a = value(await updatePushDevice(deps, kari, 'tok', { listChanges: false, householdNews: true, runDone: false, reminders: false }));
    expect(a).to.deep.include({ listChanges: false, householdNews: true, runDone: false, reminders: false });
    expect(value(await updatePushDevice(deps, kari, 'tok', { listChanges: true, householdNews: true, runDone: true }))).to.deep.include({ listChanges: true, reminders: false });
    expect(value(await updatePushDevice(deps, kari, 'tok', { listChanges: true, householdNews: true, runDone: true, reminders: null })).reminders).to.equal(false);
    expect(value(await updatePushDevice(deps, kari, 'tok', { listChanges: true, householdNews: true, runDone: true, reminders: true })).reminders).to.equal(true);
    expect(await updatePushDevice(deps, ola, 'tok', { listChanges: false, householdNews: false, runDone: false })).to.deep.equal({ ok: false, error: { type: 'push-device-not-found' } });
  });

  it("deletes the caller's own token only", async () => {
    const { deps, kari, ola } = await world();
    value(await registerPushDevice(deps, kari, { token: 'tok', platform: 'ios', provider: null }));
    expect(await deletePushDevice(deps, ola, 'tok')).to.deep.equal({ ok: false, error: { type: 'push-device-not-found' } });
    expect(await deletePushDevice(deps, kari, 'tok')).to.deep.equal({ ok: true, value: undefined });
    expect(await deletePushDevice(deps, kari, 'tok')).to.deep.equal({ ok: false, error: { type: 'push-device-not-found' } });
  });

  it('knows a token: 1 to 2048 printable ASCII characters, not blank', () => {
    expect(['a', 'fcm:APA91b-_x', '{"endpoint":"https://push.example/x","keys":{"auth":"a"}}', 'x'.repeat(PUSH_TOKEN_MAX)].every(isPushToken)).to.equal(true);
    expect(['', '   ', 'x'.repeat(PUSH_TOKEN_MAX + 1), 'tab\there', 'ø'].some(isPushToken)).to.equal(false);
  });
});
