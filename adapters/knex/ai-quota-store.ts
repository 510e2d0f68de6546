import type { Knex } from 'knex';
import type { AiQuotaStore } from '../../ports/planner-ai.js';
import { translated } from './errors.js';
import { iso, toDate } from './rows.js';

export function knexAiQuotaStore(knex: Knex): AiQuotaStore {
  const pausedUntil = async (householdId: string, now: Date): Promise<Date | null> => {
    const row = (await knex('ai_pauses').where({ household_id: householdId }).andWhere('until', '>', iso(now)).first('until')) as { until: Date | string } | undefined;
    return row ? toDate(row.until) : null;
  };
  return translated<AiQuotaStore>(knex, {
    async take(householdId, month, limit, now) {
      const until = await pausedUntil(householdId, now);
      if (until) return { allowed: false, why: 'paused', until };
      await knex('ai_calls').insert({ household_id: householdId, month, calls: 0 }).onConflict(['household_id', 'month']).ignore();
      // One statement counts the call only while under the limit: concurrent callers cannot pass it together.
      const n = await knex('ai_calls').where({ household_id: householdId, month }).andWhere('calls', '<', limit).increment('calls', 1);
      return Number(n) === 1 ? { allowed: true } : { allowed: false, why: 'quota-used' };
    },
    async used(householdId, month) {
      const row = (await knex('ai_calls').where({ household_id: householdId, month }).first('calls')) as { calls: number | string } | undefined;
      return row ? Number(row.calls) : 0;
    },
    async pause(householdId, until) {
      if (until === null) {
        await knex('ai_pauses').where({ household_id: householdId }).delete();
        return;
      }
      await knex('ai_pauses').insert({ household_id: householdId, until: iso(until) }).onConflict('household_id').merge({ until: iso(until) });
    },
    pausedUntil,
  });
}
