import type { HouseholdStore } from '../../ports/household-store.js';
import type { MailOutbox } from '../../ports/mail-outbox.js';
import type { MailingListStore } from '../../ports/mailing-list-store.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { AccountDeps } from './deps.js';
import { normalizeEmail } from './email.js';
import type { Account } from './types.js';

/**
 * Deletes the account: a household nobody else uses goes with it, a shared one loses this member. Refused while
 * the caller is the only Owner of a household other accounts still use (hand it over first). The account's
 * sessions, tokens and sign-in links go with it, and so does its waitlist row (the one it registered with, and the
 * one of its address); mail still waiting to be sent to its address is not sent.
 */
export async function deleteAccount(
  deps: Pick<AccountDeps, 'accounts' | 'clock'> & { households: HouseholdStore; waitlist: Pick<MailingListStore, 'removeOfAccount'>; mailOutbox: Pick<MailOutbox, 'dropPendingTo'> },
  account: Account,
): Promise<Result<void, ErrorOf<'owner-required'>>> {
  const memberships = await deps.households.membershipsOf(account.id);
  const households = await Promise.all(memberships.map((m) => deps.households.byId(m.householdId)));
  const plan: { householdId: string; action: 'delete' | 'leave'; memberId: string }[] = [];
  for (const [i, household] of households.entries()) {
    const mine = memberships[i]!;
    if (!household) continue;
    const others = household.members.filter((m) => m.accountId !== null && m.accountId !== account.id);
    if (others.length === 0) {
      plan.push({ householdId: household.id, action: 'delete', memberId: mine.memberId });
      continue;
    }
    const otherOwners = household.members.filter((m) => m.role === 'Owner' && m.accountId !== null && m.id !== mine.memberId);
    if (mine.role === 'Owner' && otherOwners.length === 0) return fail({ type: 'owner-required' });
    plan.push({ householdId: household.id, action: 'leave', memberId: mine.memberId });
  }
  for (const step of plan) {
    if (step.action === 'delete') await deps.households.delete(step.householdId);
    else await deps.households.removeMember(step.householdId, step.memberId);
  }
  await deps.waitlist.removeOfAccount(account.id, account.email === null ? null : normalizeEmail(account.email));
  await deps.accounts.delete(account.id);
  if (account.email !== null) await deps.mailOutbox.dropPendingTo(account.email, deps.clock.now(), 'its account was deleted');
  return ok(undefined);
}
