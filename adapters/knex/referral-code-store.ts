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
  used_by: string | null;
  created_at: Date | string;
}

const toCode = (r: ReferralCodeRow): ReferralCode => ({
  code: r.code,
  householdId: r.household_id,
  slot: r.slot === null ? null : Number(r.slot),
  usedAt: r.used_at === null ? null : toDate(r.used_at),
  usedBy: r.used_by,
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
        const row: ReferralCodeRow = { code: c.code, household_id: householdId, slot: c.slot, used_at: null, used_by: null, created_at: iso(c.createdAt) };
        try {
          await knex('referral_codes').insert(row);
          added.push(toCode(row));
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
        }
      }
      return added;
    },
    async redeem(code, accountId, at) {
      // One conditional update: of two registrations racing for one code, the database lets exactly one match.
      const rows = (await knex('referral_codes')
        .where({ code })
        .whereNull('used_at')
        .update({ used_at: iso(at), used_by: accountId, slot: null })
        .returning(['code', 'household_id', 'slot', 'used_at', 'used_by', 'created_at'])) as ReferralCodeRow[];
      return rows[0] ? toCode(rows[0]) : null;
    },
  });
}
