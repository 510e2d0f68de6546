import type { Knex } from 'knex';
import type { DinnerRule, DinnerRuleSpec, Weekday } from '../../core/plans/dinner-rules.js';
import type { DinnerRuleStore } from '../../ports/dinner-rule-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { iso, toDate } from './rows.js';

interface RuleRow {
  id: string;
  household_id: string;
  kind: DinnerRule['kind'];
  fixed_weekday: Weekday | null;
  recipe_id: string | null;
  tag: string | null;
  times_per_week: number | string | null;
  days: number | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The columns of a rule's kind and fields: those of the other kinds null. */
const specColumns = (r: DinnerRuleSpec) => ({
  kind: r.kind,
  fixed_weekday: r.kind === 'FixedDish' ? r.weekday : null,
  recipe_id: r.kind === 'TagPerWeek' ? null : r.recipeId,
  tag: r.kind === 'TagPerWeek' ? r.tag : null,
  times_per_week: r.kind === 'TagPerWeek' ? r.timesPerWeek : null,
  days: r.kind === 'Spacing' ? r.days : null,
});

function specOf(row: RuleRow): DinnerRuleSpec {
  if (row.kind === 'FixedDish') return { kind: 'FixedDish', weekday: row.fixed_weekday!, recipeId: row.recipe_id! };
  if (row.kind === 'TagPerWeek') return { kind: 'TagPerWeek', tag: row.tag!, timesPerWeek: Number(row.times_per_week) };
  return { kind: 'Spacing', days: Number(row.days), recipeId: row.recipe_id };
}

const ruleOf = (row: RuleRow): DinnerRule => ({ ...specOf(row), id: row.id, householdId: row.household_id, createdAt: toDate(row.created_at), updatedAt: toDate(row.updated_at) });

export function knexDinnerRuleStore(knex: Knex): DinnerRuleStore {
  const byId = async (db: Knex, householdId: string, id: string) => {
    const row = (await db('dinner_rules').where({ household_id: householdId, id }).first()) as RuleRow | undefined;
    return row ? ruleOf(row) : null;
  };
  return translated<DinnerRuleStore>(knex, {
    async list(householdId) {
      const rows = (await knex('dinner_rules').where({ household_id: householdId }).orderBy([{ column: 'created_at' }, { column: 'id' }])) as RuleRow[];
      return rows.map(ruleOf);
    },
    async add(rule, max) {
      try {
        return await knex.transaction(async (trx) => {
          const counted = (await trx('dinner_rules').where({ household_id: rule.householdId }).count({ n: '*' }).first()) as { n: number | string } | undefined;
          if (Number(counted?.n ?? 0) >= max) return { refused: 'dinner-rule-limit' as const };
          await trx('dinner_rules').insert({ id: rule.id, household_id: rule.householdId, ...specColumns(rule), created_at: iso(rule.createdAt), updated_at: iso(rule.updatedAt) });
          return (await byId(trx, rule.householdId, rule.id))!;
        });
      } catch (err) {
        if (isUniqueViolation(err)) return { refused: 'dinner-rule-weekday-taken' };
        throw err;
      }
    },
    async replace(householdId, ruleId, spec, at) {
      try {
        const n = await knex('dinner_rules').where({ household_id: householdId, id: ruleId }).update({ ...specColumns(spec), updated_at: iso(at) });
        return n === 0 ? null : byId(knex, householdId, ruleId);
      } catch (err) {
        if (isUniqueViolation(err)) return { refused: 'dinner-rule-weekday-taken' };
        throw err;
      }
    },
    async remove(householdId, ruleId) {
      return (await knex('dinner_rules').where({ household_id: householdId, id: ruleId }).delete()) > 0;
    },
  });
}
