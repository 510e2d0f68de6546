import * as v from 'valibot';
import { createHousehold, getHousehold, updateHousehold } from '../../../core/households/households.js';
import { addNamedMember, removeMember, updateMember } from '../../../core/households/members.js';
import { acceptInvite, createInvite, deleteInvite, INVITE_DEFAULT_DAYS, INVITE_HISTORY_DAYS, listInvites, previewInvite, type InviteView } from '../../../core/households/invites.js';
import { normalizeReadableCode } from '../../crypto/readable-codes.js';
import { MembershipResponse } from './accounts.js';
import { AGE_GROUPS, LEFTOVERS_KEEP_DAYS_DEFAULT, LEFTOVERS_KEEP_DAYS_MAX, DISLIKE_MAX_LENGTH, DISLIKES_MAX, HOUSEHOLD_NAME_MAX, LANGUAGES, PLANS, ROLES, type HouseholdWithMembers, type Member } from '../../../core/households/types.js';
import { callerAndHousehold, callerHouseholdAnd, callerHouseholdAndBody, callerHouseholdAndThenBody, created, mount, noContent, PUBLIC_PER_IP, resource } from '../route.js';
import { IsoDateTime, Uuid } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';

const MemberResponse = v.object({ id: Uuid, displayName: v.string(), role: v.picklist(ROLES), ageGroup: v.picklist(AGE_GROUPS), userId: v.nullable(Uuid) });
export const HouseholdResponse = v.object({
  id: Uuid,
  name: v.string(),
  timeZoneId: v.string(),
  language: v.picklist(LANGUAGES),
  country: v.string(),
  dinnerTime: v.string(),
  chains: v.array(v.string()),
  dislikes: v.array(v.string()),
  libraryRecipesOn: v.boolean(),
  leftoversKeepDays: v.number(),
  plan: v.picklist(PLANS),
  members: v.array(MemberResponse),
  createdAt: IsoDateTime,
});

const Name = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be blank'), v.maxLength(HOUSEHOLD_NAME_MAX, `at most ${HOUSEHOLD_NAME_MAX} characters`));
const TimeZoneId = v.pipe(v.string(), v.maxLength(64, 'at most 64 characters'));
const CreateHouseholdRequest = v.object({
  name: Name,
  timeZoneId: v.optional(TimeZoneId),
  language: v.optional(v.picklist(LANGUAGES)),
  country: v.optional(v.pipe(v.string(), v.maxLength(2, 'an ISO 3166-1 alpha-2 code'), v.regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code such as NO'))),
});
const UpdateHouseholdRequest = v.object({
  name: v.optional(Name),
  timeZoneId: v.optional(TimeZoneId),
  language: v.optional(v.picklist(LANGUAGES)),
  dinnerTime: v.optional(v.pipe(v.string(), v.maxLength(5, 'HH:MM'), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 00:00 to 23:59'))),
  chains: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be blank'), v.maxLength(80, 'at most 80 characters'))),
      v.maxLength(50, 'at most 50 chains'),
    ),
  ),
  dislikes: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.maxLength(DISLIKE_MAX_LENGTH, `at most ${DISLIKE_MAX_LENGTH} characters`), v.check((w) => w.trim().length > 0, 'must not be blank'))),
      v.maxLength(DISLIKES_MAX, `at most ${DISLIKES_MAX} dislikes`),
    ),
  ),
  libraryRecipesOn: v.optional(v.boolean()),
  leftoversKeepDays: v.optional(v.pipe(v.number(), v.integer('a whole number'), v.minValue(1, 'at least 1'), v.maxValue(LEFTOVERS_KEEP_DAYS_MAX, `at most ${LEFTOVERS_KEEP_DAYS_MAX}`))),
});
const MemberPath = v.object({ householdId: Uuid, memberId: Uuid });
const InvitePath = v.object({ householdId: Uuid, code: v.pipe(v.string(), v.maxLength(32, 'at most 32 characters')) });
const MemberName = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be blank'), v.maxLength(80, 'at most 80 characters'));
const AddMemberRequest = v.object({ displayName: MemberName, role: v.picklist(['Adult', 'Junior'] as const), ageGroup: v.optional(v.picklist(AGE_GROUPS)) });
const UpdateMemberRequest = v.object({ displayName: v.optional(MemberName), role: v.optional(v.picklist(ROLES)), ageGroup: v.optional(v.picklist(AGE_GROUPS)) });
const CreateInviteRequest = v.object({
  role: v.picklist(['Adult', 'Junior'] as const),
  memberId: v.optional(Uuid),
  expiresInDays: v.optional(v.pipe(v.number(), v.integer('a whole number'), v.minValue(1, 'at least 1'), v.maxValue(30, 'at most 30'))),
});
const InviteResponse = v.object({
  code: v.string(),
  role: v.picklist(['Adult', 'Junior'] as const),
  memberId: v.nullable(Uuid),
  expiresAt: IsoDateTime,
  createdAt: IsoDateTime,
  state: v.picklist(['open', 'used', 'expired'] as const),
  usedAt: v.nullable(IsoDateTime),
  usedByMemberId: v.nullable(Uuid),
});
const ListInvitesQuery = v.object({ state: v.optional(v.picklist(['open', 'all'] as const)) });
const InviteCodePath = v.object({ code: v.pipe(v.string(), v.maxLength(32, 'at most 32 characters')) });
const InvitePreviewResponse = v.object({
  householdName: v.string(),
  invitedBy: v.string(),
  role: v.picklist(['Adult', 'Junior'] as const),
  memberName: v.nullable(v.string()),
  expiresAt: IsoDateTime,
});
const AcceptInviteRequest = v.object({ code: v.pipe(v.string(), v.maxLength(64, 'at most 64 characters')) });

const toMemberResponse = (m: Member) => ({ id: m.id, displayName: m.displayName, role: m.role, ageGroup: m.ageGroup, userId: m.accountId });
const toInviteResponse = (i: InviteView): v.InferOutput<typeof InviteResponse> => ({
  code: i.code,
  role: i.role,
  memberId: i.memberId,
  expiresAt: i.expiresAt.toISOString(),
  createdAt: i.createdAt.toISOString(),
  state: i.state,
  usedAt: i.usedAt?.toISOString() ?? null,
  usedByMemberId: i.usedByMemberId,
});

export function toHouseholdResponse(h: HouseholdWithMembers): v.InferOutput<typeof HouseholdResponse> {
  return {
    id: h.id,
    name: h.name,
    timeZoneId: h.timeZoneId,
    language: h.language,
    country: h.country,
    dinnerTime: h.dinnerTime,
    chains: [...h.chains],
    dislikes: [...h.dislikes],
    libraryRecipesOn: h.libraryRecipesOn,
    leftoversKeepDays: h.leftoversKeepDays,
    plan: h.plan,
    members: h.members.map(toMemberResponse),
    createdAt: h.createdAt.toISOString(),
  };
}

const { route, householdRoute } = resource<ServiceDeps>('Households');

const UPDATE_HOUSEHOLD_DOC =
  'Only the fields sent change. timeZoneId must be one of /api/v1/time-zones. A Junior gets 403 adults_only. dislikes ' +
  `(at most ${DISLIKES_MAX}, each 1 to ${DISLIKE_MAX_LENGTH} characters, trimmed, each once whatever its case) are foods the ` +
  'household would rather not eat, in its own words: matched as guests\' avoids are, but soft. Every shopping-list line ' +
  'then says preferenceFit Disliked (a disliked food) or Fits; with no dislikes, NotAssessed; the planner proposes a disliked ' +
  'dish only when nothing else fits. libraryRecipesOn (false for a new household) lets the planner\'s suggestions draw on the ' +
  'shared recipe library as well as the household\'s own recipes. leftoversKeepDays (1 to ' + LEFTOVERS_KEEP_DAYS_MAX + ', ' +
  LEFTOVERS_KEEP_DAYS_DEFAULT + ' for a new household) is for how many days after the cooking day planned leftovers may be eaten: one rule for ' +
  'every dish (the household knows its food; no rule per food group), checked when leftovers are set (PUT plans/{planId}/days/{date}/leftovers) ' +
  'and by the planner; leftovers already planned stay when it changes.';
const REMOVE_MEMBER_DOC =
  'A member with an account loses the household. Only an Owner removes an Owner (403 owner_only), never the last one ' +
  '(400 owner_required). The person\'s pending named invites become open invites.';
const CREATE_INVITE_DOC =
  `A 12-character code of Crockford base32 (no I, L, O, U), valid expiresInDays (1 to 30, default ${INVITE_DEFAULT_DAYS}) ` +
  'days, usable once. memberId names the person without an account the code is for (404 member_not_found otherwise).';
const ADD_MEMBER_DOC =
  'A small child who never signs in, or a partner who has not signed up yet. An invite made for this person links their ' +
  'account when they join. ageGroup (Adult, Child or Baby; default Adult: the words of a guest\'s guestType) weighs the ' +
  'member in a day\'s portions as guests are weighed: a whole portion, half of one, none; the sum of those present and ' +
  'the guests is rounded up.';
const LIST_INVITES_DOC =
  'Without state (or state=open): the open codes, unused and unexpired. state=all: also those used or expired within the ' +
  `last ${INVITE_HISTORY_DAYS} days, each with its state; a used one says when (usedAt) and the member its user became ` +
  '(usedByMemberId; null once that person has left). A withdrawn code is deleted and listed no more.';
const PREVIEW_INVITE_DOC =
  'Public: what an invite link shows before anyone signs in: the household\'s name, who invited (their name in the ' +
  'household), the role and the named person the code is for, if any. An unknown, used, expired or withdrawn code ' +
  'answers alike, 404 invite_not_open. The code is read as the accept reads it (any case, spaces and dashes ignored).';
const ACCEPT_INVITE_DOC =
  'Session, no membership needed. Retry-safe: a caller already in the household gets 200 and the code stays unused. ' +
  'A code made for a named person links the account to that person unless the person was since claimed or removed ' +
  '(then the caller joins as a person of their own). Everyone in the household gets a joined push. The code is ' +
  'read case-insensitively, ignoring spaces and dashes. 400 invite_not_usable for an unknown, expired or used code.';

const createHouseholdRoute = route({
  method: 'POST',
  path: '/api/v1/households',
  operationId: 'createHousehold',
  summary: 'Create a household with the caller as Owner',
  description: 'Defaults: timeZoneId Europe/Oslo, language nb, country NO, dinnerTime 18:00, plan Free.',
  body: CreateHouseholdRequest,
  ...created('Created', HouseholdResponse),
  errors: ['time-zone-unknown'],
  run: ({ deps, caller, body }) => createHousehold(deps, caller.account, body),
  headers: (h) => ({ Location: `/api/v1/households/${h.id}` }),
  reply: toHouseholdResponse,
});

const getHouseholdRoute = householdRoute({
  method: 'GET',
  path: '/api/v1/households/{householdId}',
  operationId: 'getHousehold',
  auth: 'session-or-token',
  summary: 'A household the caller belongs to',
  description: 'Any member reads. A household the caller is not in answers 404, as if it did not exist.',
  responses: { 200: { description: 'The household', schema: HouseholdResponse } },
  run: callerAndHousehold(getHousehold),
  reply: toHouseholdResponse,
});

const updateHouseholdRoute = householdRoute({
  method: 'PATCH',
  path: '/api/v1/households/{householdId}',
  operationId: 'updateHousehold',
  auth: 'session-or-token',
  summary: 'Change a household (adults only)',
  description: UPDATE_HOUSEHOLD_DOC,
  body: UpdateHouseholdRequest,
  responses: { 200: { description: 'The household after the change', schema: HouseholdResponse } },
  errors: ['adults-only', 'time-zone-unknown'],
  run: callerHouseholdAndBody(updateHousehold),
  reply: toHouseholdResponse,
});

const addMemberRoute = householdRoute({
  method: 'POST',
  path: '/api/v1/households/{householdId}/members',
  operationId: 'addMember',
  summary: 'Add a named person without an account (adults only)',
  description: ADD_MEMBER_DOC,
  body: AddMemberRequest,
  ...created('Added', MemberResponse),
  errors: ['adults-only'],
  run: callerHouseholdAndBody(addNamedMember),
  reply: toMemberResponse,
});

const updateMemberRoute = route({
  method: 'PATCH',
  path: '/api/v1/households/{householdId}/members/{memberId}',
  operationId: 'updateMember',
  summary: 'Rename a member, or change a role or an age group (adults only)',
  description: 'Only an Owner grants, changes or takes away the Owner role (403 owner_only); the last Owner cannot be demoted (400 owner_required). ageGroup: as when adding a member.',
  params: MemberPath,
  body: UpdateMemberRequest,
  responses: { 200: { description: 'The member after the change', schema: MemberResponse } },
  errors: ['household-not-found', 'adults-only', 'member-not-found', 'owner-only', 'owner-required'],
  run: callerHouseholdAndThenBody('memberId', updateMember),
  reply: toMemberResponse,
});

const removeMemberRoute = route({
  method: 'DELETE',
  path: '/api/v1/households/{householdId}/members/{memberId}',
  operationId: 'removeMember',
  summary: 'Remove a member (adults only)',
  description: REMOVE_MEMBER_DOC,
  params: MemberPath,
  ...noContent('Removed'),
  errors: ['household-not-found', 'adults-only', 'member-not-found', 'owner-only', 'owner-required'],
  run: callerHouseholdAnd('memberId', removeMember),
});

const createInviteRoute = householdRoute({
  method: 'POST',
  path: '/api/v1/households/{householdId}/invites',
  operationId: 'createInvite',
  summary: 'Make an invite code (adults only)',
  description: CREATE_INVITE_DOC,
  body: CreateInviteRequest,
  ...created('Created', InviteResponse),
  errors: ['adults-only', 'member-not-found'],
  run: callerHouseholdAndBody(createInvite),
  reply: toInviteResponse,
});

const listInvitesRoute = householdRoute({
  method: 'GET',
  path: '/api/v1/households/{householdId}/invites',
  operationId: 'listInvites',
  summary: 'The open invite codes, or also the recently used and expired ones (adults only)',
  description: LIST_INVITES_DOC,
  query: ListInvitesQuery,
  responses: { 200: { description: 'The codes, newest first', schema: v.array(InviteResponse) } },
  errors: ['adults-only'],
  run: ({ deps, caller, params, query }) => listInvites(deps, caller.account, params.householdId, { past: query.state === 'all' }),
  reply: (invites) => invites.map(toInviteResponse),
});

const previewInviteRoute = route({
  method: 'GET',
  path: '/api/v1/invites/{code}',
  operationId: 'previewInvite',
  summary: 'Whose household an invite code is to, and who invited',
  description: PREVIEW_INVITE_DOC,
  tag: 'Invites',
  ...PUBLIC_PER_IP,
  params: InviteCodePath,
  responses: { 200: { description: 'The open invite', schema: InvitePreviewResponse } },
  errors: ['invite-not-open'],
  run: ({ deps, params }) => previewInvite(deps, normalizeReadableCode(params.code)),
  reply: (p): v.InferOutput<typeof InvitePreviewResponse> => ({ ...p, expiresAt: p.expiresAt.toISOString() }),
});

const deleteInviteRoute = route({
  method: 'DELETE',
  path: '/api/v1/households/{householdId}/invites/{code}',
  operationId: 'deleteInvite',
  summary: 'Withdraw an invite code (adults only)',
  params: InvitePath,
  ...noContent('Withdrawn'),
  errors: ['household-not-found', 'adults-only', 'invite-not-found'],
  run: ({ deps, caller, params }) => deleteInvite(deps, caller.account, params.householdId, normalizeReadableCode(params.code)),
});

const acceptInviteRoute = route({
  method: 'POST',
  path: '/api/v1/invites/accept',
  operationId: 'acceptInvite',
  summary: 'Join a household with an invite code',
  description: ACCEPT_INVITE_DOC,
  tag: 'Invites',
  body: AcceptInviteRequest,
  responses: { 200: { description: 'The membership', schema: MembershipResponse } },
  errors: ['invite-not-usable'],
  run: ({ deps, caller, body }) => acceptInvite(deps, caller.account, { code: normalizeReadableCode(body.code) }),
});

export const householdRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    createHouseholdRoute,
    getHouseholdRoute,
    updateHouseholdRoute,
    addMemberRoute,
    updateMemberRoute,
    removeMemberRoute,
    createInviteRoute,
    listInvitesRoute,
    deleteInviteRoute,
    previewInviteRoute,
    acceptInviteRoute,
  ]);
