import type {
  DinnerPriceListExit,
  DinnerPriceMonthlyMail,
  DinnerPriceSubscriber,
  DinnerPriceSubscriberStore,
  DinnerPriceToken,
  DinnerPriceTokenPurpose,
} from '../../ports/dinner-price-subscriber-store.js';

interface TokenRow {
  purpose: DinnerPriceTokenPurpose;
  subscriberId: string | null;
  exit: DinnerPriceListExit | null;
  leftAt: Date | null;
}

/** The dinner-price list in memory (not household data: it shares no tables with the other stores). */
export function memoryDinnerPriceSubscriberStore(): DinnerPriceSubscriberStore {
  const subscribers = new Map<string, DinnerPriceSubscriber>();
  const tokens = new Map<string, TokenRow>();
  // Per address, its monthly mails by month: they go with the address (as the table's rows cascade).
  const mailings = new Map<string, Map<string, DinnerPriceMonthlyMail>>();
  const copy = (s: DinnerPriceSubscriber): DinnerPriceSubscriber => structuredClone(s);
  const issue = (subscriberId: string, list: readonly DinnerPriceToken[]) => {
    for (const t of list) tokens.set(t.tokenHash, { purpose: t.purpose, subscriberId, exit: null, leftAt: null });
  };
  const removeId = (id: string, exit: DinnerPriceListExit, at: Date): boolean => {
    if (!subscribers.delete(id)) return false;
    mailings.delete(id);
    for (const t of tokens.values()) {
      if (t.subscriberId === id) Object.assign(t, { subscriberId: null, exit, leftAt: new Date(at) });
    }
    return true;
  };
  return {
    async byEmail(email) {
      const s = [...subscribers.values()].find((x) => x.email === email);
      return s ? copy(s) : null;
    },
    async add(s, list) {
      if ([...subscribers.values()].some((x) => x.email === s.email)) return 'email-taken';
      if (list.some((t) => tokens.has(t.tokenHash))) throw new Error('dinner-price token hash taken');
      subscribers.set(s.id, copy(s));
      issue(s.id, list);
      return 'added';
    },
    async recordMail(id, mail, mailedNoLaterThan) {
      const s = subscribers.get(id);
      if (!s || s.confirmedAt !== null || s.lastMailedAt.getTime() > mailedNoLaterThan.getTime()) return false;
      if (mail.tokens.some((t) => tokens.has(t.tokenHash))) throw new Error('dinner-price token hash taken');
      subscribers.set(id, { ...s, lastMailedAt: new Date(mail.at), language: mail.language });
      issue(id, mail.tokens);
      return true;
    },
    async byToken(tokenHash, purpose) {
      const t = tokens.get(tokenHash);
      if (!t || t.purpose !== purpose) return null;
      const s = t.subscriberId === null ? undefined : subscribers.get(t.subscriberId);
      return s ? { state: 'listed', subscriber: copy(s) } : { state: 'left', exit: t.exit ?? 'unsubscribed' };
    },
    async confirm(id, at) {
      const s = subscribers.get(id);
      if (!s) return false;
      if (s.confirmedAt === null) subscribers.set(id, { ...s, confirmedAt: new Date(at) });
      return true;
    },
    async remove(id, exit, at) {
      return removeId(id, exit, at);
    },
    async removeUnconfirmed(createdBefore, at) {
      const ids = [...subscribers.values()].filter((s) => s.confirmedAt === null && s.createdAt.getTime() < createdBefore.getTime()).map((s) => s.id);
      return ids.filter((id) => removeId(id, 'expired', at)).length;
    },
    async forgetLeft(leftBefore) {
      let n = 0;
      for (const [hash, t] of tokens) {
        if (t.subscriberId === null && t.leftAt !== null && t.leftAt.getTime() < leftBefore.getTime() && tokens.delete(hash)) n++;
      }
      return n;
    },
    async dueForMonthlyMail({ month, confirmedBefore, afterId, limit }) {
      return [...subscribers.values()]
        .filter((s) => s.confirmedAt !== null && s.confirmedAt.getTime() < confirmedBefore.getTime() && !mailings.get(s.id)?.has(month))
        .filter((s) => afterId === null || s.id > afterId)
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, limit)
        .map(copy);
    },
    async claimMonthlyMail(id, month, claim) {
      if (!subscribers.has(id)) return false;
      const of = mailings.get(id) ?? new Map<string, DinnerPriceMonthlyMail>();
      if (of.has(month)) return false;
      if (claim.tokens.some((t) => tokens.has(t.tokenHash))) throw new Error('dinner-price token hash taken');
      of.set(month, { month, claimedAt: new Date(claim.at), sentAt: null });
      mailings.set(id, of);
      issue(id, claim.tokens);
      return true;
    },
    async monthlyMailSent(id, month, at) {
      const m = mailings.get(id)?.get(month);
      if (m) mailings.get(id)!.set(month, { ...m, sentAt: new Date(at) });
    },
    async releaseMonthlyMail(id, month) {
      if (mailings.get(id)?.get(month)?.sentAt === null) mailings.get(id)!.delete(month);
    },
    async monthlyMailsOf(id) {
      return [...(mailings.get(id)?.values() ?? [])].sort((a, b) => (a.month < b.month ? -1 : 1)).map((m) => structuredClone(m));
    },
  };
}
