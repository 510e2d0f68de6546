import type { Knex } from 'knex';
import type { PantryMerge, PantryMergeRejection } from '../../core/pantry/types.js';
import type { PantryMergeStore } from '../../ports/pantry-merge-store.js';
import { translated } from './errors.js';
import { iso, toDate } from './rows.js';
import { speedOf } from './speed/index.js';
import { keysetAfter } from './queries.js';

export interface MergeRow {
  household_id: string;
  from_key: string;
  to_key: string;
  from_display_name: string;
  to_display_name: string;
  merged_at: Date | string;
}

interface RejectionRow {
  household_id: string;
  key_a: string;
  key_b: string;
  key_a_display_name: string;
  key_b_display_name: string;
  decided_at: Date | string;
}

export const toMerge = (r: MergeRow): PantryMerge => ({
  householdId: r.household_id,
  fromKey: r.from_key,
  toKey: r.to_key,
  fromDisplayName: r.from_display_name,
  toDisplayName: r.to_display_name,
  mergedAt: toDate(r.merged_at),
});

const toRejection = (r: RejectionRow): PantryMergeRejection => ({
  householdId: r.household_id,
  keyA: r.key_a,
  keyB: r.key_b,
  keyADisplayName: r.key_a_display_name,
  keyBDisplayName: r.key_b_display_name,
  decidedAt: toDate(r.decided_at),
});

const rejectionRow = (r: PantryMergeRejection): RejectionRow => ({
  household_id: r.householdId,
  key_a: r.keyA,
  key_b: r.keyB,
  key_a_display_name: r.keyADisplayName,
  key_b_display_name: r.keyBDisplayName,
  decided_at: iso(r.decidedAt),
});

const MERGE_ORDER = [{ column: 'to_key' }, { column: 'merged_at', order: 'desc' }, { column: 'from_key' }];
/** A household's merges, read on every observation and pantry read: fixed SQL (`fixedRows`), in MERGE_ORDER. */
const ACTIVE_MERGES_SQL =
  'select household_id, from_key, to_key, from_display_name, to_display_name, merged_at from pantry_merges ' +
  'where household_id = ? order by to_key, merged_at desc, from_key';
const REJECTION_ORDER = [{ column: 'decided_at', order: 'desc' }, { column: 'key_a' }, { column: 'key_b' }];

export function knexPantryMergeStore(knex: Knex): PantryMergeStore {
  const postgres = (knex.client as { config: { client: unknown } }).config.client === 'pg';

  /**
   * Every write takes the household row's lock first (Postgres), so two answers about the same household queue
   * one behind the other: A→B and B→A asked at once cannot both pass the mutual check. SQLite has one writer.
   */
  const inHousehold = <T>(householdId: string, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> =>
    knex.transaction(async (trx) => {
      if (postgres) await trx('households').where({ id: householdId }).forUpdate().select('id');
      return work(trx);
    });

  const insertRejection = async (trx: Knex.Transaction, r: PantryMergeRejection) => {
    await trx('pantry_merge_rejections').insert(rejectionRow(r)).onConflict(['household_id', 'key_a', 'key_b']).ignore();
  };

  return translated<PantryMergeStore>(knex, {
    activeMerges(householdId) {
      // Read with every pantry row: kept by the read cache.
      return speedOf(knex).cachedRead(`merges:${householdId}`, async () => (await speedOf(knex).fixedRows<MergeRow>(ACTIVE_MERGES_SQL, [householdId])).map(toMerge));
    },
    async mergeOf(householdId, fromKey) {
      const row = (await knex<MergeRow>('pantry_merges').where({ household_id: householdId, from_key: fromKey }).first()) as MergeRow | undefined;
      return row ? toMerge(row) : null;
    },
    async merge(m) {
      return inHousehold(m.householdId, async (trx) => {
        const target = await trx('pantry_merges').where({ household_id: m.householdId, from_key: m.toKey }).first();
        if (target) return 'target-merged' as const;
        const row: MergeRow = {
          household_id: m.householdId,
          from_key: m.fromKey,
          to_key: m.toKey,
          from_display_name: m.fromDisplayName,
          to_display_name: m.toDisplayName,
          merged_at: iso(m.mergedAt),
        };
        await trx('pantry_merges').insert(row).onConflict(['household_id', 'from_key']).merge();
        await trx('pantry_merges').where({ household_id: m.householdId, to_key: m.fromKey }).update({ to_key: m.toKey, to_display_name: m.toDisplayName });
        const [a, b] = m.fromKey < m.toKey ? [m.fromKey, m.toKey] : [m.toKey, m.fromKey];
        await trx('pantry_merge_rejections').where({ household_id: m.householdId, key_a: a, key_b: b }).delete();
        return 'merged' as const;
      });
    },
    async split(householdId, fromKey, decidedAt) {
      return inHousehold(householdId, async (trx) => {
        const row = (await trx<MergeRow>('pantry_merges').where({ household_id: householdId, from_key: fromKey }).first()) as MergeRow | undefined;
        if (!row) return null;
        await trx('pantry_merges').where({ household_id: householdId, from_key: fromKey }).delete();
        const m = toMerge(row);
        const fromFirst = m.fromKey < m.toKey;
        await insertRejection(trx, {
          householdId,
          keyA: fromFirst ? m.fromKey : m.toKey,
          keyB: fromFirst ? m.toKey : m.fromKey,
          keyADisplayName: fromFirst ? m.fromDisplayName : m.toDisplayName,
          keyBDisplayName: fromFirst ? m.toDisplayName : m.fromDisplayName,
          decidedAt,
        });
        return m;
      });
    },
    async pageMerges(householdId, q) {
      const query = knex<MergeRow>('pantry_merges').where({ household_id: householdId });
      const after = q.after;
      if (after !== null) {
        const at = iso(after.mergedAt);
        query.andWhere((b) => keysetAfter(b, [['to_key', '>', after.toKey], ['merged_at', '<', at], ['from_key', '>', after.fromKey]]));
      }
      return ((await query.orderBy(MERGE_ORDER).limit(q.limit)) as MergeRow[]).map(toMerge);
    },
    async countMerges(householdId) {
      const row = (await knex('pantry_merges').where({ household_id: householdId }).count({ n: '*' }).first()) as { n: number | string };
      return Number(row.n);
    },
    async rejections(householdId) {
      const rows = (await knex<RejectionRow>('pantry_merge_rejections').where({ household_id: householdId }).orderBy(REJECTION_ORDER)) as RejectionRow[];
      return rows.map(toRejection);
    },
    async reject(r) {
      await inHousehold(r.householdId, async (trx) => {
        await insertRejection(trx, r);
        await trx('pantry_merges')
          .where({ household_id: r.householdId })
          .andWhere((b) => b.where({ from_key: r.keyA, to_key: r.keyB }).orWhere({ from_key: r.keyB, to_key: r.keyA }))
          .delete();
      });
    },
    async removeRejection(householdId, keyA, keyB) {
      const n = await knex('pantry_merge_rejections').where({ household_id: householdId, key_a: keyA, key_b: keyB }).delete();
      return n > 0;
    },
    async pageRejections(householdId, q) {
      const query = knex<RejectionRow>('pantry_merge_rejections').where({ household_id: householdId });
      const after = q.after;
      if (after !== null) {
        const at = iso(after.decidedAt);
        query.andWhere((b) => keysetAfter(b, [['decided_at', '<', at], ['key_a', '>', after.keyA], ['key_b', '>', after.keyB]]));
      }
      return ((await query.orderBy(REJECTION_ORDER).limit(q.limit)) as RejectionRow[]).map(toRejection);
    },
    async countRejections(householdId) {
      const row = (await knex('pantry_merge_rejections').where({ household_id: householdId }).count({ n: '*' }).first()) as { n: number | string };
      return Number(row.n);
    },
  }, ['activeMerges']);
}
