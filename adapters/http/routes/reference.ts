import * as v from 'valibot';
import { loyaltyProgramsOf } from '../../../core/reference/loyalty-programs.js';
import { referralCodesOf } from '../../../core/reference/referral-codes.js';
import { REFERRAL_CODE_LENGTH } from '../../../core/reference/types.js';
import { problemFor } from '../problem.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { IsoDateTime, Uuid } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';

const LoyaltyProgramResponse = v.object({ id: v.string(), name: v.string(), chains: v.array(v.string()), country: v.string() });
const ReferralCodeResponse = v.object({ code: v.string(), usedAt: v.nullable(IsoDateTime), createdAt: IsoDateTime });
const HouseholdPath = v.object({ householdId: Uuid });

export function referenceRoutes(deps: ServiceDeps): AnyRoute[] {
  const tag = 'Household reference data';
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/households/{householdId}/loyalty-programs',
      operationId: 'listLoyaltyPrograms',
      summary: "Loyalty programmes of the household's country",
      description: [
        'Any member reads. Reference data shipped with the service, chosen by the household\'s country: each',
        'programme with a stable id, its name, the chains where it counts and the country (ISO 3166-1 alpha-2).',
        'Norway (NO) holds Trumf (Meny, Kiwi, Spar, Joker), Coop medlem (Coop Extra, Coop Mega, Coop Prix, Coop Obs)',
        'and Æ (Rema 1000). A country without reference data answers 404 loyalty_programs_unavailable; a household',
        'the caller is not in answers 404 household_not_found.',
      ].join(' '),
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: HouseholdPath,
      responses: { 200: { description: 'The programmes of the country', schema: v.array(LoyaltyProgramResponse) } },
      problems: { household_not_found: 404, loyalty_programs_unavailable: 404 },
      handler: async (ctx, { caller, params }) => {
        const result = await loyaltyProgramsOf(deps, caller.account, params.householdId);
        if (!result.ok) throw problemFor(result.error);
        ctx.body = result.value.map((p) => ({ id: p.id, name: p.name, chains: [...p.chains], country: p.country }));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/households/{householdId}/referral-codes',
      operationId: 'listReferralCodes',
      summary: "The household's referral codes",
      description: [
        'Any member reads. A household on plan Plus holds REFERRAL_CODES_PER_HOUSEHOLD unused codes (default 3):',
        'they are minted on read, so every read tops the unused ones up to that count; spent codes stay listed with',
        `usedAt. A code is ${REFERRAL_CODE_LENGTH} characters of Crockford base32 (0-9 and A-Z without I, L, O, U),`,
        'random and unguessable, single-use and tied to this household. Reads at the same time see the same codes',
        'and never more than the count unused. Oldest first. A household on plan Free gets an empty list. A household',
        'the caller is not in answers 404 household_not_found.',
      ].join(' '),
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: HouseholdPath,
      responses: { 200: { description: 'The codes, oldest first', schema: v.array(ReferralCodeResponse) } },
      problems: { household_not_found: 404 },
      handler: async (ctx, { caller, params }) => {
        const result = await referralCodesOf(deps, caller.account, params.householdId);
        if (!result.ok) throw problemFor(result.error);
        ctx.body = result.value.map((c) => ({ code: c.code, usedAt: c.usedAt?.toISOString() ?? null, createdAt: c.createdAt.toISOString() }));
      },
    }),
  ];
}
