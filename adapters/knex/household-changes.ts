import type { Knex } from 'knex';
import type { HouseholdChangeFeed } from '../../ports/household-changes.js';
import { watchCommits } from './commit-watch.js';
import { translated } from './errors.js';

/**
 * A household's state: its revision (migration 0016's triggers move it on every write to a list's inputs) and its
 * lists' count and summed versions (every content write of a list moves its version). The commits are heard of
 * through adapters/knex/commit-watch.ts: on SQLite from this process's store calls that wrote, on Postgres from
 * the notifications of migrations 0026 and 0028, whichever process wrote.
 */
export function knexHouseholdChanges(knex: Knex): HouseholdChangeFeed {
  const store = translated(knex, {
    async states(householdIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
      const out = new Map<string, string>();
      if (householdIds.length === 0) return out;
      const ids = [...new Set(householdIds)];
      const [revisions, lists] = await Promise.all([
        knex('household_revisions').whereIn('household_id', ids).select('household_id', 'revision'),
        knex('shopping_lists').whereIn('household_id', ids).groupBy('household_id').select('household_id').count({ n: '*' }).sum({ v: 'version' }),
      ]);
      const listsOf = new Map((lists as { household_id: string; n: number | string; v: number | string | null }[]).map((r) => [r.household_id, `${Number(r.n)}.${Number(r.v ?? 0)}`]));
      for (const r of revisions as { household_id: string; revision: number | string }[]) out.set(r.household_id, `${Number(r.revision)}.${listsOf.get(r.household_id) ?? '0.0'}`);
      return out;
    },
  });
  return {
    states: store.states,
    watch: (listener) => watchCommits(knex, listener),
  };
}
