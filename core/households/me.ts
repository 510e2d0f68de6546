import type { AccountStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import { normalizeEmail } from '../accounts/email.js';
import { DISPLAY_NAME_MAX, type Account } from '../accounts/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { Membership } from './types.js';

export interface Me {
  readonly account: Account;
  readonly memberships: readonly Membership[];
  readonly isPlatformAdmin: boolean;
  readonly serverNow: Date;
}

export interface MeDeps {
  households: HouseholdStore;
  clock: Clock;
  /** Addresses of platform admins, normalized (config ADMIN_EMAILS). */
  platformAdmins: ReadonlySet<string>;
}

export async function describeMe(deps: MeDeps, account: Account): Promise<Me> {
  return {
    account,
    memberships: await deps.households.membershipsOf(account.id),
    isPlatformAdmin: account.email !== null && deps.platformAdmins.size > 0 && deps.platformAdmins.has(normalizeEmail(account.email)),
    serverNow: deps.clock.now(),
  };
}

/** Only the display name changes. */
export async function updateMe(
  deps: MeDeps & { accounts: AccountStore },
  account: Account,
  input: { displayName: string },
): Promise<Result<Me, ErrorOf<'account-name-length' | 'unauthenticated'>>> {
  const displayName = input.displayName.trim();
  const length = [...displayName].length;
  if (length < 1 || length > DISPLAY_NAME_MAX) return fail({ type: 'account-name-length' });
  const updated = await deps.accounts.setDisplayName(account.id, displayName, deps.clock.now());
  if (!updated) return fail({ type: 'unauthenticated' });
  return ok(await describeMe(deps, updated));
}
