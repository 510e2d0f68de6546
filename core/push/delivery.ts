import type { AccountStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { Delivery, NewDelivery, PushDeliveryStore, Settlement } from '../../ports/push-delivery-store.js';
import type { PushDeviceStore } from '../../ports/push-device-store.js';
import type { OutboxEntry, PushEvent, PushOutbox } from '../../ports/push-outbox.js';
import type { PushSender, SendOutcome } from '../../ports/push-sender.js';
import type { AccountLanguage } from '../accounts/types.js';
import type { HouseholdWithMembers } from '../households/types.js';
import type { AccountId } from '../kernel/ids.js';
import { isoWeekOf } from '../dinnerprices/measure.js';
import { pushMessage, type MessageInput } from './messages.js';
import { SWITCH_OF } from './types.js';

export interface PushDeliveryDeps {
  pushOutbox: PushOutbox;
  pushDeliveries: PushDeliveryStore;
  pushDevices: PushDeviceStore;
  pushSenders: ReadonlyMap<string, PushSender>;
  households: HouseholdStore;
  accounts: AccountStore;
  ids: IdGenerator;
  clock: Clock;
}

/** A shopper's ticks are held until none came for this long, so a burst of ticks is one push. */
export const TICK_QUIET_MS = 60_000;
/** ...but never longer than this after the burst's first tick. */
export const TICK_MAX_WAIT_MS = 5 * 60_000;
/** The wait before the n-th retry: 30 s × 2^(n-1), at most an hour; a provider's longer Retry-After wins (up to 6 h). */
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 3_600_000;
export const RETRY_AFTER_MAX_MS = 6 * 3_600_000;
/** Sends tried before a delivery is given up (about two hours of retries at the default waits). */
export const MAX_ATTEMPTS = 8;
/** How long a worker's claim on a delivery holds; renewed right before each send, so longer than any one send. */
export const DEFAULT_LEASE_MS = 120_000;

export const retryDelayMs = (attempts: number, retryAfterMs: number | null): number => {
  const backoff = Math.min(RETRY_BASE_MS * 2 ** Math.max(attempts - 1, 0), RETRY_MAX_MS);
  return Math.max(backoff, Math.min(retryAfterMs ?? 0, RETRY_AFTER_MAX_MS));
};

export interface DeliveryReport {
  /** Outbox entries turned into deliveries (or into none, when nobody was to hear of them). */
  handedOver: number;
  /** Deliveries written. */
  queued: number;
  sent: number;
  retried: number;
  /** Given up: a rejected message, too many attempts, or a provider not configured here. */
  failed: { deliveryId: string; error: string }[];
  /** Not sent: the device, its switch, or the recipient's membership went meanwhile. */
  dropped: number;
  /** Tokens the provider called gone: their devices are deleted. */
  gone: number;
  /** Hand-overs that failed (a store fault): those entries stay pending for the next run, the rest go on. */
  handOverFailed: { entryIds: string[]; error: string }[];
}

/**
 * One run of the delivery worker: hands the outbox's pending entries over to deliveries (their audience resolved,
 * one message per device), then sends the due deliveries under a claim. Safe to run in several processes at once:
 * an entry is handed over once (the hand-over's conditional update), a delivery is sent by the claim holding it.
 */
export async function deliverPending(deps: PushDeliveryDeps, options: { batch?: number; leaseMs?: number } = {}): Promise<DeliveryReport> {
  const batch = options.batch ?? 100;
  const report: DeliveryReport = { handedOver: 0, queued: 0, sent: 0, retried: 0, failed: [], dropped: 0, gone: 0, handOverFailed: [] };
  await handOverPending(deps, batch, report);
  await sendDue(deps, batch, options.leaseMs ?? DEFAULT_LEASE_MS, report);
  return report;
}

type Tick = OutboxEntry & { event: Extract<PushEvent, { kind: 'list-items-ticked' }> };

/** The entries of one hand-over: one entry, or the held-back ticks of one week's list coalesced. */
function groups(entries: readonly OutboxEntry[], now: Date): OutboxEntry[][] {
  const out: OutboxEntry[][] = [];
  const ticks = new Map<string, Tick[]>();
  for (const e of entries) {
    if (e.event.kind !== 'list-items-ticked') out.push([e]);
    else {
      const key = `${e.householdId} ${e.event.planId}`;
      ticks.set(key, [...(ticks.get(key) ?? []), e as Tick]);
    }
  }
  for (const g of ticks.values()) {
    const first = Math.min(...g.map((e) => e.createdAt.getTime()));
    const last = Math.max(...g.map((e) => e.createdAt.getTime()));
    if (now.getTime() - last >= TICK_QUIET_MS || now.getTime() - first >= TICK_MAX_WAIT_MS) out.push(g);
  }
  return out;
}

async function handOverPending(deps: PushDeliveryDeps, batch: number, report: DeliveryReport): Promise<void> {
  const now = deps.clock.now();
  const households = new Map<string, Promise<HouseholdWithMembers | null>>();
  const languages = new Map<string, Promise<AccountLanguage | null>>();
  const household = (id: string) => households.get(id) ?? households.set(id, deps.households.byId(id)).get(id)!;
  const language = (id: AccountId) => languages.get(id) ?? languages.set(id, deps.accounts.byId(id).then((a) => a?.language ?? null)).get(id)!;
  // A wider window than the batch: ticks held back at the head of the outbox do not hold up what queues behind them.
  for (const group of groups(await deps.pushOutbox.pending(batch * 10), now)) {
    try {
      await handOver(deps, group, now, household, language, report);
    } catch (err) {
      report.handOverFailed.push({ entryIds: group.map((e) => e.id), error: err instanceof Error ? err.message : String(err) });
    }
  }
}

/** One group's hand-over: its audience resolved, one message per recipient, one delivery per device switched on. */
async function handOver(
  deps: PushDeliveryDeps,
  group: readonly OutboxEntry[],
  now: Date,
  household: (id: string) => Promise<HouseholdWithMembers | null>,
  language: (id: AccountId) => Promise<AccountLanguage | null>,
  report: DeliveryReport,
): Promise<void> {
  const h = await household(group[0]!.householdId);
  const messages = h ? audience(h, group) : [];
  const wanted = SWITCH_OF[group[0]!.event.kind];
  const devices = await deps.pushDevices.ofAccounts(messages.map((m) => m.accountId));
  const deliveries: NewDelivery[] = [];
  for (const m of messages) {
    const lang = await language(m.accountId);
    if (lang === null) continue;
    const message = pushMessage(lang, m.input);
    for (const d of devices) {
      if (d.accountId !== m.accountId || !d[wanted]) continue;
      deliveries.push({ id: deps.ids.newId(), householdId: h!.id, accountId: m.accountId, token: d.token, switch: wanted, message, createdAt: now });
    }
  }
  if (await deps.pushDeliveries.handOver(group.map((e) => e.id), deliveries, now)) {
    report.handedOver += group.length;
    report.queued += deliveries.length;
  }
}

/**
 * Who hears of a group, and what: member-joined and list-item-added go to every member with a login but the one
 * who did it; the ticks of one list to every member with a login, counting only the others' ticks (nobody is
 * told of their own); a receipt reminder to the shopper alone, while still a member. A household with sharing off
 * (its shopping settings, as they are at hand-over) hears of no list change. A saved week goes to every member
 * with a login but the one who saved it.
 */
function audience(h: HouseholdWithMembers, group: readonly OutboxEntry[]): { accountId: AccountId; input: MessageInput }[] {
  const base = { householdId: h.id, householdName: h.name };
  const logins = h.members.filter((m) => m.accountId !== null) as (HouseholdWithMembers['members'][number] & { accountId: AccountId })[];
  const nameOf = (accountId: AccountId | undefined) => logins.find((m) => m.accountId === accountId)?.displayName ?? null;
  const e = group[0]!.event;
  switch (e.kind) {
    case 'member-joined': {
      // Entries from before actorAccountId existed: the joiner is the member's login.
      const joiner = e.actorAccountId ?? h.members.find((m) => m.id === e.memberId)?.accountId;
      return logins.filter((m) => m.accountId !== joiner).map((m) => ({ accountId: m.accountId, input: { ...base, kind: e.kind, name: e.displayName } }));
    }
    case 'list-item-added':
      // Sharing off: list changes are the one member's business, told to nobody else.
      if (h.sharingOff) return [];
      return logins
        .filter((m) => m.accountId !== e.actorAccountId)
        .map((m) => ({ accountId: m.accountId, input: { ...base, kind: e.kind, planId: e.planId, item: e.displayName, by: nameOf(e.actorAccountId) } }));
    case 'list-items-ticked':
      if (h.sharingOff) return [];
      return logins.flatMap((m) => {
        const count = group.filter((t) => (t.event as Tick['event']).actorAccountId !== m.accountId).length;
        return count === 0 ? [] : [{ accountId: m.accountId, input: { ...base, kind: e.kind, planId: e.planId, count } }];
      });
    case 'receipt-reminder':
      return logins.some((m) => m.accountId === e.accountId) ? [{ accountId: e.accountId, input: { ...base, kind: e.kind, planId: e.planId, listId: e.listId } }] : [];
    case 'week-planned': {
      const week = Number(isoWeekOf(e.weekStart).week.slice(-2));
      return logins
        .filter((m) => m.accountId !== e.actorAccountId)
        .map((m) => ({ accountId: m.accountId, input: { ...base, kind: e.kind, planId: e.planId, week, dinners: e.dinners, by: nameOf(e.actorAccountId) } }));
    }
  }
}

async function sendDue(deps: PushDeliveryDeps, batch: number, leaseMs: number, report: DeliveryReport): Promise<void> {
  const claimId = deps.ids.newId();
  const start = deps.clock.now();
  const due = await deps.pushDeliveries.claimDue({ claimId, now: start, until: new Date(start.getTime() + leaseMs), limit: batch });
  for (const d of due) {
    const now = deps.clock.now();
    // The claim may have lapsed while earlier sends took their time: then another worker has this one.
    if (!(await deps.pushDeliveries.renew(d.id, claimId, new Date(now.getTime() + leaseMs)))) continue;
    const settlement = await attempt(deps, d, report);
    await deps.pushDeliveries.settle(d.id, claimId, settlement);
  }
}

async function attempt(deps: PushDeliveryDeps, d: Delivery, report: DeliveryReport): Promise<Settlement> {
  const now = deps.clock.now();
  const dropped = (error: string): Settlement => {
    report.dropped++;
    return { state: 'dropped', attempts: d.attempts, at: now, error };
  };
  const failed = (attempts: number, error: string): Settlement => {
    report.failed.push({ deliveryId: d.id, error });
    return { state: 'failed', attempts, at: now, error };
  };
  // Checked at send time: a device deleted, handed to another login, or switched off meanwhile gets nothing,
  // and neither does a login that left the household.
  const device = await deps.pushDevices.get(d.accountId, d.token);
  if (!device) return dropped('device no longer registered to the recipient');
  if (!device[d.switch]) return dropped(`switch ${d.switch} is off`);
  if (!(await deps.households.memberByAccount(d.householdId, d.accountId))) return dropped('recipient left the household');
  const sender = deps.pushSenders.get(device.provider);
  if (!sender) return failed(d.attempts, `push provider ${device.provider} is not configured`);
  let outcome: SendOutcome;
  try {
    outcome = await sender.send({ token: device.token, platform: device.platform }, d.message);
  } catch (err) {
    // A sender should answer every provider failure as an outcome; a throw is a fault, retried like a 5xx.
    outcome = { kind: 'retry', afterMs: null, reason: err instanceof Error ? err.message : String(err) };
  }
  const attempts = d.attempts + 1;
  switch (outcome.kind) {
    case 'sent':
      report.sent++;
      return { state: 'sent', attempts, at: now };
    case 'gone':
      report.gone++;
      await deps.pushDevices.forget(device.token);
      return { state: 'dropped', attempts, at: now, error: 'token gone' };
    case 'rejected':
      return failed(attempts, `rejected: ${outcome.reason}`);
    case 'retry':
      if (attempts >= MAX_ATTEMPTS) return failed(attempts, `gave up after ${attempts} attempts: ${outcome.reason}`);
      report.retried++;
      return { state: 'pending', attempts, nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts, outcome.afterMs)), error: outcome.reason };
  }
}
