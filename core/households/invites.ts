import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { Invite, InviteStore } from '../../ports/invite-store.js';
import type { ReadableCodes } from '../../ports/readable-codes.js';
import type { AccountStore } from '../../ports/account-store.js';
import type { Account } from '../accounts/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId, MemberId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { requireAdult } from './access.js';
import type { Member, Membership } from './types.js';

export interface InviteDeps {
  households: HouseholdStore;
  invites: InviteStore;
  codes: ReadableCodes;
  ids: IdGenerator;
  clock: Clock;
}

/** 12 characters of Crockford base32: 60 bits, unguessable within the rate limits, easy to read aloud. */
export const INVITE_CODE_LENGTH = 12;
export const INVITE_DEFAULT_DAYS = 7;
const DAY_MS = 86_400_000;

type Denied = ErrorOf<'household-not-found' | 'adults-only'>;

export async function createInvite(
  deps: InviteDeps,
  caller: Account,
  householdId: HouseholdId,
  input: { role: 'Adult' | 'Junior'; memberId?: string | undefined; expiresInDays?: number | undefined },
): Promise<Result<Invite, Denied | ErrorOf<'member-not-found'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  if (input.memberId !== undefined) {
    // A code for a named person: one who is in this household and has no account yet.
    const person = await deps.households.memberById(householdId, input.memberId);
    if (!person || person.accountId !== null) return fail({ type: 'member-not-found' });
  }
  const now = deps.clock.now();
  const invite = {
    code: deps.codes.newCode(INVITE_CODE_LENGTH),
    householdId,
    role: input.role,
    memberId: input.memberId ?? null,
    createdBy: caller.id,
    createdAt: now,
    expiresAt: new Date(now.getTime() + (input.expiresInDays ?? INVITE_DEFAULT_DAYS) * DAY_MS),
  };
  await deps.invites.create(invite);
  return ok({ ...invite, usedAt: null, usedBy: null });
}

/** How long a used or expired invite is still listed with `past` (withdrawn ones are deleted, so never). */
export const INVITE_HISTORY_DAYS = 30;

export type InviteState = 'open' | 'used' | 'expired';

/** An invite as adults list it: its state at the time of asking, and the member its user became (while in the household). */
export interface InviteView extends Invite {
  readonly state: InviteState;
  readonly usedByMemberId: MemberId | null;
}

const stateOf = (i: Invite, now: Date): InviteState => (i.usedAt !== null ? 'used' : i.expiresAt.getTime() <= now.getTime() ? 'expired' : 'open');

/**
 * The household's open invites, newest first; with `past`, also those used or expired within the last
 * INVITE_HISTORY_DAYS days, each used one with the member who used it.
 */
export async function listInvites(deps: InviteDeps, caller: Account, householdId: HouseholdId, input: { past?: boolean } = {}): Promise<Result<InviteView[], Denied>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const now = deps.clock.now();
  if (!input.past) return ok((await deps.invites.listOpen(householdId, now)).map((i) => ({ ...i, state: 'open', usedByMemberId: null })));
  const [invites, household] = await Promise.all([deps.invites.listSince(householdId, new Date(now.getTime() - INVITE_HISTORY_DAYS * DAY_MS)), deps.households.byId(householdId)]);
  const memberOf = new Map((household?.members ?? []).flatMap((m) => (m.accountId === null ? [] : [[m.accountId, m.id] as const])));
  return ok(invites.map((i) => ({ ...i, state: stateOf(i, now), usedByMemberId: i.usedBy === null ? null : (memberOf.get(i.usedBy) ?? null) })));
}

/** What an open invite's link shows to anyone holding it, signed in or not: whose household, and who invited. */
export interface InvitePreview {
  readonly householdName: string;
  /** The inviter's name in the household (their account's name when they have left it). */
  readonly invitedBy: string;
  readonly role: Invite['role'];
  /** The named person the code is for, if any. */
  readonly memberName: string | null;
  readonly expiresAt: Date;
}

/**
 * The household and inviter of an open code. An unknown, used, expired or withdrawn code answers alike
 * ('invite-not-open'), so that the answer tells nothing about codes that do not work.
 */
export async function previewInvite(
  deps: Pick<InviteDeps, 'invites' | 'households' | 'clock'> & { accounts: AccountStore },
  code: string,
): Promise<Result<InvitePreview, ErrorOf<'invite-not-open'>>> {
  const invite = await deps.invites.byCode(code);
  if (!invite || stateOf(invite, deps.clock.now()) !== 'open') return fail({ type: 'invite-not-open' });
  const household = await deps.households.byId(invite.householdId);
  if (!household) return fail({ type: 'invite-not-open' });
  const inviter = household.members.find((m) => m.accountId === invite.createdBy)?.displayName ?? (await deps.accounts.byId(invite.createdBy))?.displayName;
  if (inviter === undefined) return fail({ type: 'invite-not-open' });
  const person = invite.memberId === null ? undefined : household.members.find((m) => m.id === invite.memberId);
  return ok({ householdName: household.name, invitedBy: inviter, role: invite.role, memberName: person?.displayName ?? null, expiresAt: invite.expiresAt });
}

export async function deleteInvite(deps: InviteDeps, caller: Account, householdId: HouseholdId, code: string): Promise<Result<void, Denied | ErrorOf<'invite-not-found'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  return (await deps.invites.delete(householdId, code)) ? ok(undefined) : fail({ type: 'invite-not-found' });
}

const membershipOf = (householdName: string, m: Member): Membership => ({ householdId: m.householdId, householdName, role: m.role, memberId: m.id });

/**
 * Joins the household of a code. Retry-safe: a caller already in the household gets its membership and the code
 * stays unused. A code for a named person links the caller to that person, unless the person was claimed or
 * removed meanwhile: then the caller joins as a person of their own. Everyone in the household gets a push.
 */
export async function acceptInvite(deps: InviteDeps, caller: Account, input: { code: string }): Promise<Result<Membership, ErrorOf<'invite-not-usable'>>> {
  const invite = await deps.invites.byCode(input.code);
  if (!invite) return fail({ type: 'invite-not-usable' });
  const household = await deps.households.byId(invite.householdId);
  if (!household) return fail({ type: 'invite-not-usable' });
  const already = await deps.households.memberByAccount(invite.householdId, caller.id);
  if (already) return ok(membershipOf(household.name, already));

  const now = deps.clock.now();
  if (invite.usedAt !== null || invite.expiresAt.getTime() <= now.getTime()) return fail({ type: 'invite-not-usable' });
  // The code's use, the join and the joined push land in one transaction.
  const joined = await deps.invites.accept({
    code: invite.code,
    accountId: caller.id,
    at: now,
    newMember: { id: deps.ids.newId(), displayName: caller.displayName, role: invite.role, ageGroup: 'Adult', accountId: caller.id, createdAt: now },
    joined: (member) => ({
      id: deps.ids.newId(),
      householdId: invite.householdId,
      event: { kind: 'member-joined', memberId: member.id, displayName: member.displayName, actorAccountId: caller.id },
      createdAt: now,
    }),
  });
  if (typeof joined !== 'string') return ok(membershipOf(household.name, joined));
  // Another use won the code (perhaps this caller's own retry), or the caller joined meanwhile: answer as that one did.
  const member = await deps.households.memberByAccount(invite.householdId, caller.id);
  return member ? ok(membershipOf(household.name, member)) : fail({ type: 'invite-not-usable' });
}
