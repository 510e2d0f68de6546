import type { Knex } from 'knex';
import type { ObservationType, PantryObservation, StorageLocation } from '../../core/pantry/types.js';
import type { PantryObservationStore } from '../../ports/pantry-observation-store.js';
import { translated } from './errors.js';
import { revisionOf } from './household-revisions.js';
import { logOrder, type FoodLog, type LoggedObservation } from './speed/pantry-logs.js';
import { iso, toDate } from './rows.js';
import { speedOf } from './speed/index.js';

export interface ObservationRow {
  id: string;
  household_id: string;
  food_key: string;
  display_name: string | null;
  observation_type: string;
  quantity: number | string | null;
  unit: string | null;
  storage_location: string | null;
  confidence: number | string | null;
  best_before: string | null;
  observed_at: Date | string;
}

const COLUMNS = ['id', 'household_id', 'food_key', 'display_name', 'observation_type', 'quantity', 'unit', 'storage_location', 'confidence', 'best_before', 'observed_at'];
const LOG_ORDER = [{ column: 'observed_at' }, { column: 'seq' }];
// Well below SQLite's and Postgres's bound variable limits.
const CHUNK = 500;
/** Rows of one multi-row INSERT (addAll): 11 columns each, 1,100 variables. */
const INSERT_ROWS = 100;

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

export const toObservation = (r: ObservationRow): PantryObservation => ({
  id: r.id,
  householdId: r.household_id,
  foodKey: r.food_key,
  displayName: r.display_name,
  observationType: r.observation_type as ObservationType,
  quantity: num(r.quantity),
  unit: r.unit,
  storageLocation: r.storage_location as StorageLocation | null,
  confidence: num(r.confidence),
  bestBefore: r.best_before,
  observedAt: toDate(r.observed_at),
});

/** The row of an observation (the shopping list store writes a trip's observations in its own transaction). */
export const observationRow = (o: PantryObservation): Omit<ObservationRow, 'observed_at'> & { observed_at: string } => ({
  id: o.id,
  household_id: o.householdId,
  food_key: o.foodKey,
  display_name: o.displayName,
  observation_type: o.observationType,
  quantity: o.quantity,
  unit: o.unit,
  storage_location: o.storageLocation,
  confidence: o.confidence,
  best_before: o.bestBefore,
  observed_at: iso(o.observedAt),
});

type SeqRow = ObservationRow & { seq: number | string };

const ofFoodsSql = (foodKeys: readonly string[]) =>
  `select ${COLUMNS.join(', ')}, seq from pantry_observations where household_id = ? and food_key in (${foodKeys.map(() => '?').join(', ')})`;

/** Postgres: the insert of one observation as the CTE `added` (its RETURNING list and `)` to follow), and its values. */
const ADDED = `with added as (insert into pantry_observations (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')})`;
const addedValues = (o: PantryObservation): Knex.Value[] => {
  const row = observationRow(o) as unknown as Record<string, Knex.Value>;
  return COLUMNS.map((c) => row[c]!);
};

/** The rows as a log: each observation (frozen) with its seq, in log order (observedAt, then seq). */
const logOf = (rows: readonly SeqRow[]): LoggedObservation[] => rows.map((r) => ({ o: Object.freeze(toObservation(r)), seq: Number(r.seq) })).sort(logOrder);
const inLogOrder = (rows: readonly SeqRow[]): PantryObservation[] => logOf(rows).map((l) => l.o);

/**
 * The food logs POST observations reads after its write: adding an observation to its food's log and answering the
 * log, kept between writes under the food's revision.
 */
function foodLogWrites(knex: Knex): { add(o: PantryObservation): Promise<PantryObservation[]> } {
  const postgres = knex.client.config.client === 'pg';
  const table = () => knex<ObservationRow>('pantry_observations');
  // The food logs POST observations reads after its write, kept between writes under the food's revision
  // (migration 0029, speed/pantry-logs.ts): a food gathers many observations over months of use, and reading them back
  // was a large share of the request's time (docs/performance.md, figures from code comments).
  const foodLogs = speedOf(knex).foodLogs();
  const revisionSql = 'select revision from pantry_food_revisions where household_id = ? and food_key = ?';
  // The food's log and its revision, read in one statement (one snapshot), answered and kept.
  const readFood = async (householdId: string, foodKey: string): Promise<PantryObservation[]> => {
    const rows = await speedOf(knex).fixedRows<SeqRow & { revision: number | string | null }>(`select ${COLUMNS.join(', ')}, seq, (${revisionSql}) as revision from pantry_observations where household_id = ? and food_key = ?`,
      [householdId, foodKey, householdId, foodKey],
    );
    const log = logOf(rows);
    const answered = log.map((l) => l.o);
    const revision = rows[0]?.revision ?? null;
    if (revision !== null) foodLogs.keep(householdId, foodKey, BigInt(revision), log);
    return answered;
  };
  // SQLite (one writer at a time): the insert, then the food's revision. When it is the one after the kept log's, no
  // other write to the food came between, and the kept log plus this observation is the log now. Else the food's log
  // and its revision are read in one statement (one snapshot) and kept.
  const addToFoodOnSqlite = async (o: PantryObservation, before: FoodLog | undefined): Promise<PantryObservation[]> => {
    const known = before?.version;
    const [seq] = (await table().insert(observationRow(o))) as number[];
    if (before && seq !== undefined) {
      const [now] = await speedOf(knex).fixedRows<{ revision: number | string }>(revisionSql, [o.householdId, o.foodKey]);
      if (now && before.version === known && BigInt(now.revision) === known + 1n) {
        foodLogs.advance(before, { o: Object.freeze({ ...o }), seq: Number(seq) });
        return before.log.map((l) => l.o);
      }
    }
    return readFood(o.householdId, o.foodKey);
  };
  // Postgres: one statement, one round trip. The insert answers the revision it moved the food to (0029's trigger).
  // The food's rows come back only when that is not the one after the kept log's. They are then read in the
  // statement's snapshot, which does not hold the new row (RETURNING gives it); with it, they are the log as this
  // write left it when that snapshot's revision is the one before this write.
  const addToFoodOnPostgres = async (o: PantryObservation, before: FoodLog | undefined): Promise<PantryObservation[]> => {
    const expected = before ? before.version + 1n : null;
    const sql =
      `${ADDED} returning ${COLUMNS.join(', ')}, seq, food_revision) ` +
      `select ${COLUMNS.join(', ')}, seq, food_revision, (${revisionSql}) as seen from added union all ` +
      `select ${COLUMNS.join(', ')}, seq, null, null from pantry_observations where household_id = ? and food_key = ? and (select food_revision from added) is distinct from ?::bigint`;
    const bindings = [...addedValues(o), o.householdId, o.foodKey, o.householdId, o.foodKey, expected === null ? null : String(expected)];
    // As a fixed statement (`fixedRows`): Postgres parses and plans it once per connection instead of on every request
    // (W6 in docs/performance.md).
    const rows = await speedOf(knex).fixedRows<SeqRow & { food_revision: string | null; seen: string | null }>(sql, bindings);
    const own = rows.find((r) => r.food_revision !== null);
    if (!own) throw new Error(`observation ${o.id} was not added`);
    const added: LoggedObservation = { o: Object.freeze(toObservation(own)), seq: Number(own.seq) };
    const revision = BigInt(own.food_revision!);
    if (before && revision === expected && before.version === expected - 1n) {
      foodLogs.advance(before, added);
      return before.log.map((l) => l.o);
    }
    // A write to the food committed after the statement's snapshot was taken, before this one's: those rows are not
    // the log as this write left it. Read again: the log then, or as it is now (a later write in it too). A food with
    // no revision row in the snapshot had never been observed (the row outlives its observations): revision 0.
    const seen = own.seen === null ? 0n : BigInt(own.seen);
    if (seen !== revision - 1n) return readFood(o.householdId, o.foodKey);
    const log = logOf(rows.filter((r) => r !== own));
    log.push(added);
    log.sort(logOrder);
    const answered = log.map((l) => l.o);
    foodLogs.keep(o.householdId, o.foodKey, revision, log);
    return answered;
  };
  return {
    add(o) {
      const before = foodLogs.held(o.householdId, o.foodKey);
      return postgres ? addToFoodOnPostgres(o, before) : addToFoodOnSqlite(o, before);
    },
  };
}

export function knexPantryObservationStore(knex: Knex): PantryObservationStore {
  const postgres = knex.client.config.client === 'pg';
  const table = () => knex<ObservationRow>('pantry_observations');
  // A household's log, read once and kept while it does not change (adapters/knex/speed/pantry-logs.ts): every read first
  // asks the database for the household's revision, one read by key, so a change made by any process is seen at
  // once. Reading and mapping thousands of rows is what a pantry read cost before. Not the row count with the
  // newest seq: a sequence hands out seq outside transactions, so on Postgres a late commit and a deletion can bring
  // those back to a value already seen (test/knex/pantry-log-version.test.ts).
  const logs = speedOf(knex).pantryLogs;
  const read = async (q: Knex.QueryBuilder): Promise<PantryObservation[]> => ((await q.select(COLUMNS).orderBy(LOG_ORDER)) as ObservationRow[]).map(toObservation);
  const food = foodLogWrites(knex);
  const store: PantryObservationStore = translated<PantryObservationStore>(knex, {
    async add(o) {
      await table().insert(observationRow(o));
    },
    async addAll(observations) {
      // One INSERT of many rows at a time, well under the bound-variable limits: seq follows the rows' order.
      const rows = observations.map(observationRow);
      for (let i = 0; i < rows.length; i += INSERT_ROWS) await table().insert(rows.slice(i, i + INSERT_ROWS));
    },
    async ofHousehold(householdId) {
      const version = await revisionOf(knex, householdId);
      const held = logs.held(householdId);
      // The kept log itself, frozen: the pantry model keeps its fold by the log (core/pantry/model.ts).
      if (version !== null && held?.version === version) return held.log;
      return logs.keep(householdId, version, await read(table().where({ household_id: householdId })));
    },
    async ofFoods(householdId, foodKeys) {
      if (foodKeys.length === 0) return [];
      if (foodKeys.length > CHUNK) {
        const wanted = new Set(foodKeys);
        return (await read(table().where({ household_id: householdId }))).filter((o) => wanted.has(o.foodKey));
      }
      // Fixed SQL (`fixedRows`: read on every observation), sorted here, not by ORDER BY: asked to order, the planner
      // walks the household's whole log in the order of its (household, time) index instead of seeking the foods'
      // rows, several times slower on SQLite with no statistics (W6; docs/performance.md, figures from code comments).
      return inLogOrder(await speedOf(knex).fixedRows<SeqRow>(ofFoodsSql(foodKeys), [householdId, ...foodKeys]));
    },
    async addToFoodLog(o, foodKeys) {
      // The usual case: the food's own log (no other food merged into it), kept between writes.
      if (foodKeys.length === 1 && foodKeys[0] === o.foodKey) {
        return food.add(o);
      }
      if (!postgres || foodKeys.length === 0 || foodKeys.length > CHUNK) {
        await table().insert(observationRow(o));
        return foodKeys.length === 0 ? [] : store.ofFoods(o.householdId, foodKeys);
      }
      // Postgres: one statement, one round trip. The read does not see the row its own insert adds (one snapshot), so
      // that row comes back from RETURNING. Through knex, not as a prepared statement (adapters/knex/speed/fixed-sql.ts):
      // prepared, W6 ran markedly slower (docs/performance.md, figures from code comments).
      const sql =
        `${ADDED} returning ${COLUMNS.join(', ')}, seq) ` +
        `${ofFoodsSql(foodKeys)} union all select ${COLUMNS.join(', ')}, seq from added`;
      const { rows } = (await knex.raw(sql, [...addedValues(o), o.householdId, ...foodKeys])) as { rows: SeqRow[] };
      const wanted = new Set(foodKeys);
      return inLogOrder(rows.filter((r) => wanted.has(r.food_key)));
    },
    async remove(householdId, observationId) {
      return (await table().where({ household_id: householdId, id: observationId }).delete()) > 0;
    },
    async removeOfFoods(householdId, foodKeys) {
      if (foodKeys === null) return table().where({ household_id: householdId }).delete();
      let removed = 0;
      for (let i = 0; i < foodKeys.length; i += CHUNK) {
        removed += await table().where({ household_id: householdId }).whereIn('food_key', foodKeys.slice(i, i + CHUNK)).delete();
      }
      return removed;
    },
  });
  return store;
}
