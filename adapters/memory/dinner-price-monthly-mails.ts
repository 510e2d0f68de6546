import type { DinnerPriceMonthlyMail, DinnerPriceMonthlyMails, DinnerPriceSubscriberStore } from '../../ports/dinner-price-monthly-mails.js';
import { issueTokens, listRows, memoryMailingList, type MemoryListRows } from './mailing-list.js';

/** The dinner-price list's monthly mails in memory, over the list's rows: they go with their address. */
export function memoryDinnerPriceMonthlyMails(rows: MemoryListRows): DinnerPriceMonthlyMails {
  // Per address, its monthly mails by month.
  const mailings = new Map<string, Map<string, DinnerPriceMonthlyMail>>();
  rows.onRemoved.push((id) => mailings.delete(id));
  return {
    async dueForMonthlyMail({ month, confirmedBefore, afterId, limit }) {
      return [...rows.addresses.values()]
        .filter((s) => s.confirmedAt !== null && s.confirmedAt.getTime() < confirmedBefore.getTime() && !mailings.get(s.id)?.has(month))
        .filter((s) => afterId === null || s.id > afterId)
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, limit)
        .map((s) => structuredClone(s));
    },
    async claimMonthlyMail(id, month, claim) {
      if (!rows.addresses.has(id)) return false;
      const of = mailings.get(id) ?? new Map<string, DinnerPriceMonthlyMail>();
      if (of.has(month)) return false;
      issueTokens(rows, id, claim.tokens);
      of.set(month, { month, claimedAt: new Date(claim.at), sentAt: null });
      mailings.set(id, of);
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

/** The dinner-price list in memory (not household data: it shares no tables with the other stores). */
export function memoryDinnerPriceSubscriberStore(): DinnerPriceSubscriberStore {
  const rows = listRows('dinner-prices');
  return { ...memoryMailingList(rows), ...memoryDinnerPriceMonthlyMails(rows) };
}
