import type { Knex } from 'knex';
import type { ReferralCode } from '../../core/reference/types.js';
import type { ReferralCodeStore } from '../../ports/referral-code-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { iso, toDate } from './rows.js';

interface ReferralCodeRow {
  code: string;
  household_id: string;
  slot: number | string | null;
  used_at: Date | string | null;
  created_at: Date | string;
}

const toCode = (r: ReferralCodeRow): ReferralCode => ({
  code: r.code,
  householdId: r.household_id,
  slot: r.slot === null ? null : Number(r.slot),
  usedAt: r.used_at === null ? null : toDate(r.used_at),
  createdAt: toDate(r.created_at),
});

export function knexReferralCodeStore(knex: Knex): ReferralCodeStore {
  return translated<ReferralCodeStore>(knex, {
    async listOf(householdId) {
      const rows = await knex<ReferralCodeRow>('referral_codes')
        .where({ household_id: householdId })
        .orderBy([{ column: 'created_at' }, { column: 'code' }]);
      return (rows as ReferralCodeRow[]).map(toCode);
    },
    async addToFreeSlots(householdId, codes) {
      const added: ReferralCode[] = [];
      // One statement per code, outside a transaction: the unique (household_id, slot) key refuses a slot a
      // concurrent reader filled first, and that refusal must not undo the other slots.
      for (const c of codes) {
        const row: ReferralCodeRow = { code: c.code, household_id: householdId, slot: c.slot, used_at: null, created_at: iso(c.createdAt) };
        try {
          await knex('referral_codes').insert(row);
          added.push(toCode(row));
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
        }
      }
      return added;
    },
    async markUsed(householdId, code, at) {
      return knex.transaction(async (trx) => {
        const n = await trx('referral_codes').where({ household_id: householdId, code }).whereNull('used_at').update({ used_at: iso(at), slot: null });
        if (n === 0) return null;
        const row = await trx<ReferralCodeRow>('referral_codes').where({ code }).first();
        return toCode(row as ReferralCodeRow);
      });
    },
  });
}
