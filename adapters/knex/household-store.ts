import type { Knex } from 'knex';
import { LEFTOVERS_KEEP_DAYS_DEFAULT, type Household, type HouseholdWithMembers, type Member, type HouseholdRole, type Language, type Plan } from '../../core/households/types.js';
import type { HouseholdStore, NewMember } from '../../ports/household-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { fromJsonText, iso, rowMapping, toBool, toDate, toJsonText } from './rows.js';
import { speedOf } from './speed/index.js';
import { childrenOf, keysetAfter } from './queries.js';

export interface HouseholdRow {
  id: string;
  name: string;
  time_zone_id: string;
  language: string;
  country: string;
  dinner_time: string;
  chains: string;
  plan: string;
  sharing_off: boolean | number;
  price_catalogue_on: boolean | number;
  dislikes: string;
  library_recipes_on: boolean | number;
  leftovers_keep_days: number | string;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface MemberRow {
  id: string;
  household_id: string;
  account_id: string | null;
  display_name: string;
  role: string;
  age_group: string;
  created_at: Date | string;
}

export const toHousehold = (r: HouseholdRow): Household => ({
  id: r.id,
  name: r.name,
  timeZoneId: r.time_zone_id,
  language: r.language as Language,
  country: r.country,
  dinnerTime: r.dinner_time,
  chains: fromJsonText<string[]>(r.chains),
  plan: r.plan as Plan,
  sharingOff: toBool(r.sharing_off),
  priceCatalogueOn: toBool(r.price_catalogue_on),
  dislikes: fromJsonText<string[]>(r.dislikes),
  libraryRecipesOn: toBool(r.library_recipes_on),
  leftoversKeepDays: Number(r.leftovers_keep_days),
  createdAt: toDate(r.created_at),
  updatedAt: toDate(r.updated_at),
});

const memberMapping = rowMapping<Member>({ id: 'as-is', householdId: 'as-is', accountId: 'as-is', displayName: 'as-is', role: 'as-is', ageGroup: 'as-is', createdAt: 'instant' });

export const toMember = (r: MemberRow): Member => memberMapping.fromRow(r);

export const memberRow = (householdId: string, m: NewMember): MemberRow => memberMapping.toRow({ ...m, ageGroup: m.ageGroup ?? 'Adult', householdId }) as unknown as MemberRow;

/** Run on (nearly) every household request, so written out once rather than built by knex each time. */
const MEMBER_BY_ACCOUNT_SQL =
  'select id, household_id, account_id, display_name, role, age_group, created_at from household_members where household_id = ? and account_id = ? limit 1';
const MEMBERSHIPS_SQL =
  'select m.household_id, h.name as household_name, m.role, m.id from household_members m ' +
  'inner join households h on h.id = m.household_id where m.account_id = ? order by m.created_at, m.household_id';

/** A household read kept for every reader: nothing of it can be changed in place. */
function frozen(h: HouseholdWithMembers | null): HouseholdWithMembers | null {
  if (h === null) return null;
  return Object.freeze({ ...h, chains: Object.freeze([...h.chains]), dislikes: Object.freeze([...h.dislikes]), members: Object.freeze(h.members.map((m) => Object.freeze(m))) });
}

export function knexHouseholdStore(knex: Knex): HouseholdStore {
  const load = async (db: Knex | Knex.Transaction, householdId: string): Promise<HouseholdWithMembers | null> => {
    const row = await db<HouseholdRow>('households').where({ id: householdId }).first();
    if (!row) return null;
    const members = await db<MemberRow>('household_members').where({ household_id: householdId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return { ...toHousehold(row as HouseholdRow), members: (members as MemberRow[]).map(toMember) };
  };
  return translated<HouseholdStore>(knex, {
    async create(h, first) {
      return knex.transaction(async (trx) => {
        await trx('households').insert({
          id: h.id,
          name: h.name,
          time_zone_id: h.timeZoneId,
          language: h.language,
          country: h.country,
          dinner_time: h.dinnerTime,
          chains: toJsonText(h.chains),
          plan: h.plan,
          sharing_off: h.sharingOff ?? false,
          price_catalogue_on: h.priceCatalogueOn ?? true,
          dislikes: toJsonText(h.dislikes ?? []),
          library_recipes_on: h.libraryRecipesOn ?? false,
          leftovers_keep_days: h.leftoversKeepDays ?? LEFTOVERS_KEEP_DAYS_DEFAULT,
          created_at: iso(h.createdAt),
          updated_at: iso(h.createdAt),
        });
        await trx('household_members').insert(memberRow(h.id, first));
        return (await load(trx, h.id))!;
      });
    },
    byId(householdId) {
      // On most household routes (its settings, members, time zone): kept by the read cache, which drops it with any
      // write to households or household_members (watched-tables.ts), by whichever process. Frozen: every reader
      // gets the same one.
      return speedOf(knex).cachedRead(`household:${householdId}`, async () => frozen(await load(knex, householdId)), (h) => h !== null);
    },
    memberByAccount(householdId, accountId) {
      // On nearly every household request: kept by the read cache (a member, not a refusal).
      return speedOf(knex).cachedRead(`member:${householdId}:${accountId}`,
        async () => {
          const [row] = await speedOf(knex).fixedRows<MemberRow>(MEMBER_BY_ACCOUNT_SQL, [householdId, accountId]);
          return row ? toMember(row) : null;
        },
        (member) => member !== null,
      );
    },
    async memberById(householdId, memberId) {
      const row = await knex<MemberRow>('household_members').where({ household_id: householdId, id: memberId }).first();
      return row ? toMember(row as MemberRow) : null;
    },
    async updateMember(householdId, memberId, changes) {
      const patch: Record<string, unknown> = {};
      if (changes.displayName !== undefined) patch['display_name'] = changes.displayName;
      if (changes.role !== undefined) patch['role'] = changes.role;
      if (changes.ageGroup !== undefined) patch['age_group'] = changes.ageGroup;
      return knex.transaction(async (trx) => {
        if (Object.keys(patch).length > 0) await trx('household_members').where({ household_id: householdId, id: memberId }).update(patch);
        const row = await trx<MemberRow>('household_members').where({ household_id: householdId, id: memberId }).first();
        return row ? toMember(row as MemberRow) : null;
      });
    },
    async claimMember(householdId, memberId, accountId, role) {
      try {
        const n = await knex('household_members').where({ household_id: householdId, id: memberId }).whereNull('account_id').update({ account_id: accountId, role });
        if (n !== 1) return null;
      } catch (err) {
        // The account is a member of this household already (unique household_id, account_id).
        if (isUniqueViolation(err)) return null;
        throw err;
      }
      const row = await knex<MemberRow>('household_members').where({ household_id: householdId, id: memberId }).first();
      return row ? toMember(row as MemberRow) : null;
    },
    async addMember(householdId, member) {
      const row = memberRow(householdId, member);
      await knex('household_members').insert(row);
      return toMember(row);
    },
    async update(householdId, changes, at) {
      const patch: Record<string, unknown> = { updated_at: iso(at) };
      if (changes.name !== undefined) patch['name'] = changes.name;
      if (changes.timeZoneId !== undefined) patch['time_zone_id'] = changes.timeZoneId;
      if (changes.language !== undefined) patch['language'] = changes.language;
      if (changes.dinnerTime !== undefined) patch['dinner_time'] = changes.dinnerTime;
      if (changes.chains !== undefined) patch['chains'] = toJsonText(changes.chains);
      if (changes.sharingOff !== undefined) patch['sharing_off'] = changes.sharingOff;
      if (changes.priceCatalogueOn !== undefined) patch['price_catalogue_on'] = changes.priceCatalogueOn;
      if (changes.dislikes !== undefined) patch['dislikes'] = toJsonText(changes.dislikes);
      if (changes.libraryRecipesOn !== undefined) patch['library_recipes_on'] = changes.libraryRecipesOn;
      if (changes.leftoversKeepDays !== undefined) patch['leftovers_keep_days'] = changes.leftoversKeepDays;
      // One transaction: the answer is this update's result, not a concurrent writer's.
      return knex.transaction(async (trx) => {
        const n = await trx('households').where({ id: householdId }).update(patch);
        return n === 0 ? null : load(trx, householdId);
      });
    },
    async page(after, limit) {
      let q = knex<HouseholdRow>('households');
      if (after) keysetAfter(q, [['created_at', '>', iso(after.createdAt)], ['id', '>', after.id]]);
      const rows = (await q.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(limit)) as HouseholdRow[];
      if (rows.length === 0) return [];
      const members = (await childrenOf(knex, 'household_members', 'household_id', rows).orderBy([{ column: 'created_at' }, { column: 'id' }])) as MemberRow[];
      return rows.map((r) => ({ ...toHousehold(r), members: members.filter((m) => m.household_id === r.id).map(toMember) }));
    },
    async delete(householdId) {
      await knex('households').where({ id: householdId }).delete();
    },
    async removeMember(householdId, memberId) {
      return (await knex('household_members').where({ household_id: householdId, id: memberId }).delete()) === 1;
    },
    membershipsOf(accountId) {
      // GET /me on every app start: kept by the read cache.
      return speedOf(knex).cachedRead(`memberships:${accountId}`, async () => {
        const rows = await speedOf(knex).fixedRows<{ household_id: string; household_name: string; role: string; id: string }>(MEMBERSHIPS_SQL, [accountId]);
        return rows.map((r) => ({ householdId: r.household_id, householdName: r.household_name, role: r.role as HouseholdRole, memberId: r.id }));
      });
    },
  }, ['byId', 'memberByAccount', 'membershipsOf']);
}
