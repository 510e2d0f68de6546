import { expect } from 'chai';
import { DEFAULT_SWITCHES, type PushSwitches } from '../../core/push/types.js';
import type { DeviceRegistration } from '../../ports/push-device-store.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, createdAccount } from './fixtures.js';

const OFF: PushSwitches = { listChanges: false, householdNews: false, runDone: false, reminders: false };

export function pushDeviceStoreContract(backend: Backend): void {
  storeSuite(backend, 'PushDeviceStore', (s) => {
    const login = async () => {
      const a = await createdAccount(s);
      return a.id;
    };
    const reg = (accountId: string, over: Partial<DeviceRegistration> = {}): DeviceRegistration => ({
      token: 'fcmtoken:abc_DEF-123',
      accountId,
      platform: 'android',
      provider: 'fcm',
      at: at('2026-04-01T08:00:00.123Z'),
      ...over,
    });

    it('round-trips a registration, dates and booleans included', async () => {
      const a = await login();
      const switches = { listChanges: true, householdNews: false, runDone: true, reminders: false };
      const d = await s.pushDevices.register(reg(a), switches);
      const expected = {
        token: 'fcmtoken:abc_DEF-123',
        accountId: a,
        platform: 'android',
        provider: 'fcm',
        ...switches,
        createdAt: at('2026-04-01T08:00:00.123Z'),
        lastSeenAt: at('2026-04-01T08:00:00.123Z'),
      };
      expect(d).to.deep.equal(expected);
      expect(await s.pushDevices.get(a, d.token)).to.deep.equal(expected);
      expect(await s.pushDevices.ofAccounts([a])).to.deep.equal([expected]);
    });

    it("marks the login's own known token seen: platform and provider as said, switches and createdAt kept", async () => {
      const a = await login();
      await s.pushDevices.register(reg(a), OFF);
      const again = await s.pushDevices.register(reg(a, { platform: 'ios', provider: 'apns', at: at('2026-04-02T09:30:00.456Z') }), DEFAULT_SWITCHES);
      expect(again).to.deep.equal({
        token: 'fcmtoken:abc_DEF-123',
        accountId: a,
        platform: 'ios',
        provider: 'apns',
        ...OFF,
        createdAt: at('2026-04-01T08:00:00.123Z'),
        lastSeenAt: at('2026-04-02T09:30:00.456Z'),
      });
      expect(await s.pushDevices.ofAccounts([a])).to.have.length(1);
    });

    it('hands a token known under another login to the caller, with the switches given', async () => {
      const [a, b] = [await login(), await login()];
      await s.pushDevices.register(reg(a), OFF);
      const moved = await s.pushDevices.register(reg(b, { at: at('2026-04-03T00:00:00.000Z') }), DEFAULT_SWITCHES);
      expect(moved).to.include({ accountId: b, ...DEFAULT_SWITCHES });
      expect(moved.createdAt).to.deep.equal(at('2026-04-03T00:00:00.000Z'));
      expect(await s.pushDevices.get(a, moved.token)).to.equal(null);
      expect(await s.pushDevices.ofAccounts([a, b])).to.deep.equal([moved]);
    });

    it('keeps one row per token under simultaneous registrations', async () => {
      const logins = await Promise.all(Array.from({ length: 5 }, login));
      await Promise.all(logins.map((a) => s.pushDevices.register(reg(a), DEFAULT_SWITCHES)));
      const rows = await s.pushDevices.ofAccounts(logins);
      expect(rows).to.have.length(1);
      expect(logins).to.include(rows[0]!.accountId);
    });

    it("sets switches on the login's own token only; reminders left out keeps its value", async () => {
      const [a, b] = [await login(), await login()];
      const d = await s.pushDevices.register(reg(a), DEFAULT_SWITCHES);
      expect(await s.pushDevices.setSwitches(b, d.token, { listChanges: false, householdNews: false, runDone: false })).to.equal(null);
      expect(await s.pushDevices.setSwitches(a, 'nosuchtoken', { listChanges: false, householdNews: false, runDone: false })).to.equal(null);
      const kept = await s.pushDevices.setSwitches(a, d.token, { listChanges: false, householdNews: true, runDone: false });
      expect(kept).to.deep.equal({ ...d, listChanges: false, runDone: false, reminders: true });
      const off = await s.pushDevices.setSwitches(a, d.token, { listChanges: true, householdNews: false, runDone: true, reminders: false });
      expect(off).to.deep.equal({ ...d, householdNews: false, reminders: false });
      expect(await s.pushDevices.get(a, d.token)).to.deep.equal(off);
    });

    it("deletes the login's own token only; forgets a token whoever holds it; a deleted login takes its devices", async () => {
      const [a, b] = [await login(), await login()];
      await s.pushDevices.register(reg(a, { token: 'tokena' }), DEFAULT_SWITCHES);
      await s.pushDevices.register(reg(a, { token: 'tokenb' }), DEFAULT_SWITCHES);
      await s.pushDevices.register(reg(b, { token: 'tokenc' }), DEFAULT_SWITCHES);
      expect(await s.pushDevices.delete(b, 'tokena')).to.equal(false);
      expect(await s.pushDevices.delete(a, 'tokena')).to.equal(true);
      expect(await s.pushDevices.delete(a, 'tokena')).to.equal(false);
      await s.pushDevices.forget('tokenb');
      await s.pushDevices.forget('nosuchtoken');
      expect(await s.pushDevices.ofAccounts([a])).to.deep.equal([]);
      await s.accounts.delete(b);
      expect(await s.pushDevices.ofAccounts([b])).to.deep.equal([]);
    });

    it('lists the devices of the logins asked for, by login then token', async () => {
      const [a, b, c] = [await login(), await login(), await login()];
      for (const [acc, token] of [[b, 'tokenz'], [a, 'tokeny'], [b, 'tokenx'], [c, 'tokenw']] as const) await s.pushDevices.register(reg(acc, { token }), DEFAULT_SWITCHES);
      const rows = await s.pushDevices.ofAccounts([a, b]);
      const expected = [
        [a, 'tokeny'],
        [b, 'tokenx'],
        [b, 'tokenz'],
      ].sort((x, y) => (x[0]! < y[0]! ? -1 : x[0]! > y[0]! ? 1 : x[1]! < y[1]! ? -1 : 1));
      expect(rows.map((d) => [d.accountId, d.token])).to.deep.equal(expected);
      expect(await s.pushDevices.ofAccounts([])).to.deep.equal([]);
    });
  });
}
