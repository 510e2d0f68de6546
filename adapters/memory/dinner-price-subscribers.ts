import type {
  DinnerPriceListExit,
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
  const copy = (s: DinnerPriceSubscriber): DinnerPriceSubscriber => structuredClone(s);
  const issue = (subscriberId: string, list: readonly DinnerPriceToken[]) => {
    for (const t of list) tokens.set(t.tokenHash, { purpose: t.purpose, subscriberId, exit: null, leftAt: null });
  };
  const removeId = (id: string, exit: DinnerPriceListExit, at: Date): boolean => {
    if (!subscribers.delete(id)) return false;
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
  };
}
