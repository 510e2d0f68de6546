import type { PushDevice } from '../../core/push/types.js';
import type { Delivery, PushDeliveryStore } from '../../ports/push-delivery-store.js';
import type { PushDeviceStore } from '../../ports/push-device-store.js';
import type { MemoryPushOutbox } from './invites.js';
import { claimRows, settledProgress } from './send-progress.js';
import type { MemoryTables } from './stores.js';

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface MemoryPushDevices extends PushDeviceStore {
  /** What goes when a device row goes (the deliveries' cascade on their device). */
  readonly onDeleted: ((token: string) => void)[];
}

export function memoryPushDeviceStore(t: MemoryTables): MemoryPushDevices {
  const devices = new Map<string, PushDevice>();
  const onDeleted: ((token: string) => void)[] = [];
  const drop = (token: string) => {
    const had = devices.delete(token);
    if (had) for (const hook of onDeleted) hook(token);
    return had;
  };
  // A device goes with its login, as the SQL cascade does.
  t.onAccountDeleted.push((accountId) => {
    for (const [token, d] of devices) if (d.accountId === accountId) drop(token);
  });
  const mine = (accountId: string, token: string) => {
    const d = devices.get(token);
    return d && d.accountId === accountId ? d : undefined;
  };
  return {
    onDeleted,
    async register(r, s) {
      const known = devices.get(r.token);
      const device: PushDevice =
        known && known.accountId === r.accountId
          ? { ...known, platform: r.platform, provider: r.provider, lastSeenAt: r.at }
          : { token: r.token, accountId: r.accountId, platform: r.platform, provider: r.provider, ...s, createdAt: r.at, lastSeenAt: r.at };
      devices.set(r.token, device);
      return structuredClone(device);
    },
    async get(accountId, token) {
      const d = mine(accountId, token);
      return d ? structuredClone(d) : null;
    },
    async setSwitches(accountId, token, s) {
      const d = mine(accountId, token);
      if (!d) return null;
      const next: PushDevice = { ...d, listChanges: s.listChanges, householdNews: s.householdNews, runDone: s.runDone, reminders: s.reminders ?? d.reminders };
      devices.set(token, next);
      return structuredClone(next);
    },
    async delete(accountId, token) {
      return mine(accountId, token) ? drop(token) : false;
    },
    async ofAccounts(accountIds) {
      const wanted = new Set(accountIds);
      return [...devices.values()]
        .filter((d) => wanted.has(d.accountId))
        .sort((a, b) => byText(a.accountId, b.accountId) || byText(a.token, b.token))
        .map((d) => structuredClone(d));
    },
    async forget(token) {
      drop(token);
    },
  };
}

type Row = Delivery & { claimId: string | null; claimedUntil: Date | null };

/** Deliveries over the memory outbox and devices; rows whose household, login or device went are gone, as the SQL cascades make them. */
export function memoryPushDeliveryStore(t: MemoryTables, side: { outbox: MemoryPushOutbox; devices: MemoryPushDevices }): PushDeliveryStore {
  const rows = new Map<string, Row>();
  side.devices.onDeleted.push((token) => {
    for (const [id, r] of rows) if (r.token === token) rows.delete(id);
  });
  const alive = (r: Row) => t.households.has(r.householdId) && t.accounts.has(r.accountId);
  const live = () => [...rows.values()].filter(alive);
  const view = ({ claimId: _c, claimedUntil: _u, ...d }: Row): Delivery => structuredClone(d);
  const held = (id: string, claimId: string) => {
    const r = rows.get(id);
    return r && alive(r) && r.claimId === claimId && r.state === 'pending' ? r : undefined;
  };
  return {
    async handOver(entryIds, deliveries, at) {
      if (deliveries.some((d) => rows.has(d.id))) throw new Error('push_deliveries: id exists');
      if (!side.outbox.handOver(entryIds, at)) return false;
      for (const d of deliveries) {
        rows.set(d.id, { ...structuredClone(d), state: 'pending', attempts: 0, nextAttemptAt: d.createdAt, lastError: null, finishedAt: null, claimId: null, claimedUntil: null });
      }
      return true;
    },
    async claimDue(claim) {
      return claimRows(live(), claim).map(view);
    },
    async renew(id, claimId, until) {
      const r = held(id, claimId);
      if (r) r.claimedUntil = until;
      return r !== undefined;
    },
    async settle(id, claimId, s) {
      const r = held(id, claimId);
      if (!r) return;
      rows.set(id, { ...r, ...settledProgress(s) });
    },
    async ofHousehold(householdId) {
      return live()
        .filter((r) => r.householdId === householdId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || byText(a.id, b.id))
        .map(view);
    },
    async purge(before) {
      let n = 0;
      for (const [id, r] of rows) {
        if (!alive(r)) rows.delete(id);
        else if (r.state !== 'pending' && r.finishedAt !== null && r.finishedAt.getTime() < before.getTime()) {
          rows.delete(id);
          n++;
        }
      }
      return n + side.outbox.purgeHandedOver(before);
    },
  };
}
