import * as v from 'valibot';
import { loyaltyProgramsOf } from '../../../core/reference/loyalty-programs.js';
import { referralCodesOf } from '../../../core/reference/referral-codes.js';
import { REFERRAL_CODE_LENGTH } from '../../../core/reference/types.js';
import { mount, resource } from '../route.js';
import { IsoDateTime, Uuid } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';

const LoyaltyProgramResponse = v.object({ id: v.string(), name: v.string(), chains: v.array(v.string()), country: v.string() });
const ReferralCodeResponse = v.object({ code: v.string(), usedAt: v.nullable(IsoDateTime), createdAt: IsoDateTime });

const { householdRoute } = resource<ServiceDeps>('Household reference data');

const LIST_LOYALTY_PROGRAMS_DOC =
  [
  'Any member reads. Reference data shipped with the service, chosen by the household\'s country: each',
  'programme with a stable id, its name, the chains where it counts and the country (ISO 3166-1 alpha-2).',
  'Norway (NO) holds Trumf (Meny, Kiwi, Spar, Joker), Coop medlem (Coop Extra, Coop Mega, Coop Prix, Coop Obs)',
  'and Æ (Rema 1000). A country without reference data answers 404 loyalty_programs_unavailable; a household',
  'the caller is not in answers 404 household_not_found.',
      ].join(' ');
const LIST_REFERRAL_CODES_DOC =
  [
  'Any member reads. A household on plan Plus holds REFERRAL_CODES_PER_HOUSEHOLD unused codes (default 3):',
  'they are minted on read, so every read tops the unused ones up to that count; spent codes stay listed with',
  `usedAt. A code is ${REFERRAL_CODE_LENGTH} characters of Crockford base32 (0-9 and A-Z without I, L, O, U),`,
  'random and unguessable, single-use and tied to this household. Reads at the same time see the same codes',
  'and never more than the count unused. Oldest first. A household on plan Free gets an empty list. A household',
  'the caller is not in answers 404 household_not_found.',
      ].join(' ');

const listLoyaltyProgramsRoute = householdRoute({
  method: 'GET',
  path: '/api/v1/households/{householdId}/loyalty-programs',
  operationId: 'listLoyaltyPrograms',
  summary: "Loyalty programmes of the household's country",
  description: LIST_LOYALTY_PROGRAMS_DOC,
  responses: { 200: { description: 'The programmes of the country', schema: v.array(LoyaltyProgramResponse) } },
  errors: ['loyalty-programs-unavailable'],
  run: ({ deps, caller, params }) => loyaltyProgramsOf(deps, caller.account, params.householdId),
  reply: (value) => value.map((p) => ({ id: p.id, name: p.name, chains: [...p.chains], country: p.country })),
});

const listReferralCodesRoute = householdRoute({
  method: 'GET',
  path: '/api/v1/households/{householdId}/referral-codes',
  operationId: 'listReferralCodes',
  summary: "The household's referral codes",
  description: LIST_REFERRAL_CODES_DOC,
  responses: { 200: { description: 'The codes, oldest first', schema: v.array(ReferralCodeResponse) } },
  run: ({ deps, caller, params }) => referralCodesOf(deps, caller.account, params.householdId),
  reply: (value) => value.map((c) => ({ code: c.code, usedAt: c.usedAt?.toISOString() ?? null, createdAt: c.createdAt.toISOString() })),
});

export const referenceRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    listLoyaltyProgramsRoute,
    listReferralCodesRoute,
  ]);

