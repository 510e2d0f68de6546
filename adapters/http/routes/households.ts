import * as v from 'valibot';
import { createHousehold, getHousehold, updateHousehold } from '../../../core/households/households.js';
import { HOUSEHOLD_NAME_MAX, LANGUAGES, PLANS, ROLES, type HouseholdWithMembers } from '../../../core/households/types.js';
import { problemFor } from '../problem.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { IsoDateTime, Uuid } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';

const MemberResponse = v.object({ id: Uuid, displayName: v.string(), role: v.picklist(ROLES), userId: v.nullable(Uuid) });
const HouseholdResponse = v.object({
  id: Uuid,
  name: v.string(),
  timeZoneId: v.string(),
  language: v.picklist(LANGUAGES),
  country: v.string(),
  dinnerTime: v.string(),
  chains: v.array(v.string()),
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
});
const HouseholdPath = v.object({ householdId: Uuid });

export function toHouseholdResponse(h: HouseholdWithMembers): v.InferOutput<typeof HouseholdResponse> {
  return {
    id: h.id,
    name: h.name,
    timeZoneId: h.timeZoneId,
    language: h.language,
    country: h.country,
    dinnerTime: h.dinnerTime,
    chains: [...h.chains],
    plan: h.plan,
    members: h.members.map((m) => ({ id: m.id, displayName: m.displayName, role: m.role, userId: m.accountId })),
    createdAt: h.createdAt.toISOString(),
  };
}

export function householdRoutes(deps: ServiceDeps): AnyRoute[] {
  const tag = 'Households';
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/households',
      operationId: 'createHousehold',
      summary: 'Create a household with the caller as Owner',
      description: 'Defaults: timeZoneId Europe/Oslo, language nb, country NO, dinnerTime 18:00, plan Free.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      body: CreateHouseholdRequest,
      responses: { 201: { description: 'Created', schema: HouseholdResponse } },
      problems: { time_zone_unknown: 400 },
      handler: async (ctx, { caller, body }) => {
        const result = await createHousehold(deps, caller.account, body);
        if (!result.ok) throw problemFor(result.error);
        ctx.status = 201;
        ctx.set('Location', `/api/v1/households/${result.value.id}`);
        ctx.body = toHouseholdResponse(result.value);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/households/{householdId}',
      operationId: 'getHousehold',
      summary: 'A household the caller belongs to',
      description: 'Any member reads. A household the caller is not in answers 404, as if it did not exist.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: HouseholdPath,
      responses: { 200: { description: 'The household', schema: HouseholdResponse } },
      problems: { household_not_found: 404 },
      handler: async (ctx, { caller, params }) => {
        const result = await getHousehold(deps, caller.account, params.householdId);
        if (!result.ok) throw problemFor(result.error);
        ctx.body = toHouseholdResponse(result.value);
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/households/{householdId}',
      operationId: 'updateHousehold',
      summary: 'Change a household (adults only)',
      description: 'Only the fields sent change. timeZoneId must be one of /api/v1/time-zones. A Junior gets 403 adults_only.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: HouseholdPath,
      body: UpdateHouseholdRequest,
      responses: { 200: { description: 'The household after the change', schema: HouseholdResponse } },
      problems: { household_not_found: 404, adults_only: 403, time_zone_unknown: 400 },
      handler: async (ctx, { caller, params, body }) => {
        const result = await updateHousehold(deps, caller.account, params.householdId, body);
        if (!result.ok) throw problemFor(result.error);
        ctx.body = toHouseholdResponse(result.value);
      },
    }),
  ];
}
