import type { Knex } from 'knex';
import type { PackageOf } from '../../core/food/buy-amounts.js';
import type { PantryObservation } from '../../core/pantry/types.js';
import type { Derivation, LineChange, LineStatus, ListStamp, MadeForDay, PreferenceFit, PriceSource, ReasonCode, ShoppingLine, ShoppingList, ShoppingListContent, TripRecord, WouldAdd } from '../../core/shopping/types.js';
import type { ListEffects, ShoppingInputs, ShoppingListStore } from '../../ports/shopping-list-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { SYNC_ID } from './food-table-store.js';
import { toHousehold, toMember, type HouseholdRow, type MemberRow } from './household-store.js';
import { toMealEvent, toParticipant, type EventRow, type ParticipantRow } from './meal-event-store.js';
import { toMerge, type MergeRow } from './pantry-merge-store.js';
import { observationRow, toObservation, type ObservationRow } from './pantry-observation-store.js';
import { toDay, type DayTableRow, type PlanTableRow } from './plan-store.js';
import { outboxRow } from './push-outbox.js';
import { toRecipe, type IngredientRow, type RecipeRow } from './recipe-store.js';
import { fromJsonText, iso, toBool, toDate, toJsonText } from './rows.js';
import { toWeight, type UnitWeightRow } from './unit-weight-store.js';
import { speedOf } from './speed/index.js';

interface ListRow {
  id: string;
  household_id: string;
  plan_id: string;
  version: number;
  generated_at: Date | string;
  completed_at: Date | string | null;
  skipped_references: string;
  added_references: string | null;
  trip: string | null;
  derived_from: string | null;
  fresh_until: Date | string | null;
  made_for: string;
  would_add: string;
  stale_since: Date | string | null;
  person_changes: string | null;
}
interface LineRow {
  id: string;
  list_id: string;
  position: number;
  food_key: string;
  display_name: string;
  required_quantity: number | string;
  unit: string;
  extra_quantity: number | string;
  status: string;
  purchased_quantity: number | string;
  purchased_unit: string | null;
  reason_code: string;
  have_quantity: number | string;
  related_plan_entry_ids: string;
  is_manual: unknown;
  added_after_shopping: unknown;
  aisle: string;
  suggested_price: number | string | null;
  suggested_product_name: string | null;
  suggested_price_source: string;
  suggested_price_is_aggregate: unknown;
  tick_notified: unknown;
  preference_fit: string;
  pack_unit: string | null;
  pack_quantity: number | string | null;
  pack_of_unit: string | null;
}

const toLine = (r: LineRow): ShoppingLine => ({
  id: r.id,
  foodKey: r.food_key,
  displayName: r.display_name,
  requiredQuantity: Number(r.required_quantity),
  unit: r.unit,
  extraQuantity: Number(r.extra_quantity),
  status: r.status as LineStatus,
  purchasedQuantity: Number(r.purchased_quantity),
  purchasedUnit: r.purchased_unit,
  reasonCode: r.reason_code as ReasonCode,
  haveQuantity: Number(r.have_quantity),
  relatedPlanEntryIds: fromJsonText<string[]>(r.related_plan_entry_ids),
  isManual: toBool(r.is_manual),
  addedAfterShopping: toBool(r.added_after_shopping),
  aisle: r.aisle,
  suggestedPrice: r.suggested_price === null ? null : Number(r.suggested_price),
  suggestedProductName: r.suggested_product_name,
  suggestedPriceSource: r.suggested_price_source as PriceSource,
  suggestedPriceIsAggregate: toBool(r.suggested_price_is_aggregate),
  tickNotified: toBool(r.tick_notified),
  preferenceFit: r.preference_fit as PreferenceFit,
  // A line without a known package reads back as it was written: without `pack`.
  ...(r.pack_unit === null || r.pack_quantity === null || r.pack_of_unit === null
    ? {}
    : { pack: { packUnit: r.pack_unit as PackageOf['packUnit'], quantity: Number(r.pack_quantity), unit: r.pack_of_unit } }),
});

const lineRow = (listId: string, l: ShoppingLine, position: number): LineRow => ({
  id: l.id,
  list_id: listId,
  position,
  food_key: l.foodKey,
  display_name: l.displayName,
  required_quantity: l.requiredQuantity,
  unit: l.unit,
  extra_quantity: l.extraQuantity,
  status: l.status,
  purchased_quantity: l.purchasedQuantity,
  purchased_unit: l.purchasedUnit,
  reason_code: l.reasonCode,
  have_quantity: l.haveQuantity,
  related_plan_entry_ids: toJsonText(l.relatedPlanEntryIds),
  is_manual: l.isManual,
  added_after_shopping: l.addedAfterShopping,
  aisle: l.aisle,
  suggested_price: l.suggestedPrice,
  suggested_product_name: l.suggestedProductName,
  suggested_price_source: l.suggestedPriceSource,
  suggested_price_is_aggregate: l.suggestedPriceIsAggregate,
  tick_notified: l.tickNotified,
  preference_fit: l.preferenceFit,
  pack_unit: l.pack?.packUnit ?? null,
  pack_quantity: l.pack?.quantity ?? null,
  pack_of_unit: l.pack?.unit ?? null,
});

const stampOf = (r: ListRow): ListStamp => ({
  id: r.id,
  version: Number(r.version),
  completedAt: r.completed_at === null ? null : toDate(r.completed_at),
  derivation: r.derived_from === null || r.fresh_until === null ? null : { from: r.derived_from, until: toDate(r.fresh_until) },
});

// 26 columns a line: 1,000 lines stay below SQLite's 32,766 and Postgres's 65,535 bound variables of one statement.
const CHUNK = 1000;
const LINE_COLUMNS = Object.keys(lineRow('', { relatedPlanEntryIds: [] } as unknown as ShoppingLine, 0)) as (keyof LineRow)[];

/**
 * The columns of each input table a derivation reads, as the owning store's row mapper takes them (the inputs read
 * builds one JSON object per row from them; the contract suite checks the answer against the stores' own reads).
 */
const INPUT_COLUMNS = {
  households: ['id', 'name', 'time_zone_id', 'language', 'country', 'dinner_time', 'chains', 'plan', 'sharing_off', 'price_catalogue_on', 'dislikes', 'library_recipes_on', 'leftovers_keep_days', 'created_at', 'updated_at'] satisfies (keyof HouseholdRow)[],
  household_members: ['id', 'household_id', 'account_id', 'display_name', 'role', 'age_group', 'created_at'] satisfies (keyof MemberRow)[],
  plans: ['id', 'household_id', 'week_start', 'created_at', 'updated_at'] satisfies (keyof PlanTableRow)[],
  plan_days: ['id', 'plan_id', 'date', 'recipe_id', 'portions_override', 'note', 'leftovers_of'] satisfies (keyof DayTableRow)[],
  meal_events: ['id', 'household_id', 'date', 'event_type', 'serving_time', 'available_cooking_minutes', 'notes', 'created_at', 'updated_at'] satisfies (keyof EventRow)[],
  meal_event_participants: ['id', 'event_id', 'household_member_id', 'position', 'is_present', 'guest_type', 'guest_count', 'dietary_notes', 'avoids'] satisfies (keyof ParticipantRow)[],
  recipes: ['id', 'household_id', 'title', 'title_key', 'servings', 'active_minutes', 'total_minutes', 'steps', 'source_url', 'image_url', 'created_at', 'updated_at'] satisfies (keyof RecipeRow)[],
  recipe_ingredients: ['recipe_id', 'position', 'household_id', 'display_name', 'food_key', 'quantity', 'unit', 'optional', 'base_recipe_id', 'reference'] satisfies (keyof IngredientRow)[],
  pantry_observations: ['id', 'household_id', 'food_key', 'display_name', 'observation_type', 'quantity', 'unit', 'storage_location', 'confidence', 'best_before', 'observed_at'] satisfies (keyof ObservationRow)[],
  pantry_merges: ['household_id', 'from_key', 'to_key', 'from_display_name', 'to_display_name', 'merged_at'] satisfies (keyof MergeRow)[],
  unit_weights: ['household_id', 'food_key', 'unit', 'display_name', 'grams', 'updated_at'] satisfies (keyof UnitWeightRow)[],
} as const;
type InputTable = keyof typeof INPUT_COLUMNS;

/**
 * The one statement of `inputs`: every input table's rows of the household as a JSON array (ordered as the
 * owning store orders them), the plan's recipes with every base they reach by a recursive CTE. One statement is
 * one consistent snapshot on both databases, and one round trip.
 */
// The household's revision, which every write to an input moves in its own transaction (migration 0016); it is the
// pantry log's version too, as the pantry store keeps it.
const REVISION = `(SELECT r.revision FROM household_revisions r WHERE r.household_id = :h)`;

function inputsSql(postgres: boolean): string {
  const object = (alias: string, table: InputTable) => {
    const pairs = INPUT_COLUMNS[table].map((c) => `'${c}', ${alias}."${c}"`).join(', ');
    return postgres ? `json_build_object(${pairs})` : `json_object(${pairs})`;
  };
  const rows = (table: InputTable, alias: string, where: string, order: string) =>
    postgres
      ? `(SELECT coalesce(json_agg(${object(alias, table)} ORDER BY ${order}), CAST('[]' AS json)) FROM ${table} ${alias} WHERE ${where})`
      : `(SELECT json_group_array(${object(alias, table)} ORDER BY ${order}) FROM ${table} ${alias} WHERE ${where})`;
  // :h the household, :p the plan (named bindings).
  const week = `(SELECT d.date FROM plan_days d JOIN plans p ON p.id = d.plan_id WHERE p.id = :p AND p.household_id = :h)`;
  return `WITH RECURSIVE wanted(id) AS (
      SELECT d.recipe_id FROM plan_days d JOIN plans p ON p.id = d.plan_id WHERE p.id = :p AND p.household_id = :h AND d.recipe_id IS NOT NULL
      UNION
      SELECT i.base_recipe_id FROM recipe_ingredients i JOIN wanted w ON i.recipe_id = w.id WHERE i.household_id = :h AND i.base_recipe_id IS NOT NULL
    )
    SELECT
      ${rows('households', 'h', 'h.id = :h', 'h.id')} AS households,
      ${rows('household_members', 'm', 'm.household_id = :h', 'm.created_at, m.id')} AS members,
      ${REVISION} AS revision,
      (SELECT s.synced_at FROM food_table_syncs s WHERE s.id = :sync) AS synced_at,
      ${rows('plans', 'p', 'p.id = :p AND p.household_id = :h', 'p.id')} AS plans,
      ${rows('plan_days', 'd', 'd.plan_id IN (SELECT p.id FROM plans p WHERE p.id = :p AND p.household_id = :h)', 'd.date')} AS days,
      ${rows('meal_events', 'e', `e.household_id = :h AND e.date IN ${week}`, 'e.date, e.created_at, e.id')} AS events,
      ${rows('meal_event_participants', 'x', `x.event_id IN (SELECT e.id FROM meal_events e WHERE e.household_id = :h AND e.date IN ${week})`, 'x.event_id, x.position')} AS participants,
      ${rows('recipes', 'r', 'r.household_id = :h AND r.id IN (SELECT id FROM wanted)', 'r.id')} AS recipes,
      ${rows('recipe_ingredients', 'i', 'i.household_id = :h AND i.recipe_id IN (SELECT id FROM wanted)', 'i.recipe_id, i.position')} AS ingredients,
      CASE WHEN CAST(${REVISION} AS text) = :logVersion THEN NULL ELSE ${rows('pantry_observations', 'o', 'o.household_id = :h', 'o.observed_at, o.seq')} END AS observations,
      ${rows('pantry_merges', 'g', 'g.household_id = :h', 'g.to_key, g.merged_at DESC, g.from_key')} AS merges,
      ${rows('unit_weights', 'u', 'u.household_id = :h', 'u.food_key, u.unit')} AS weights`;
}

interface InputsRow {
  households: unknown;
  members: unknown;
  revision: number | string | null;
  synced_at: Date | string | null;
  plans: unknown;
  days: unknown;
  events: unknown;
  participants: unknown;
  recipes: unknown;
  ingredients: unknown;
  /** Null when the log's version (the revision) is the one asked with (the log held already). */
  observations: unknown;
  merges: unknown;
  weights: unknown;
}

// SQLite answers JSON as text, Postgres (json) parsed already.
const jsonRows = <T>(v: unknown): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : ((v ?? []) as T[]));

function toInputs(r: InputsRow, observations: readonly PantryObservation[]): ShoppingInputs {
  const household = jsonRows<HouseholdRow>(r.households)[0];
  const planRow = jsonRows<PlanTableRow>(r.plans)[0];
  const participants = new Map<string, ParticipantRow[]>();
  for (const p of jsonRows<ParticipantRow>(r.participants)) participants.set(p.event_id, [...(participants.get(p.event_id) ?? []), p]);
  const ingredients = new Map<string, IngredientRow[]>();
  for (const i of jsonRows<IngredientRow>(r.ingredients)) ingredients.set(i.recipe_id, [...(ingredients.get(i.recipe_id) ?? []), i]);
  return {
    household: household ? { ...toHousehold(household), members: jsonRows<MemberRow>(r.members).map(toMember) } : null,
    householdRevision: r.revision === null ? null : String(r.revision),
    foodTableSyncedAt: r.synced_at === null ? null : toDate(r.synced_at),
    plan: planRow
      ? {
          id: planRow.id,
          householdId: planRow.household_id,
          weekStart: planRow.week_start,
          createdAt: toDate(planRow.created_at),
          updatedAt: toDate(planRow.updated_at),
          days: jsonRows<DayTableRow>(r.days).map(toDay),
        }
      : null,
    events: jsonRows<EventRow>(r.events).map((e) => toMealEvent(e, (participants.get(e.id) ?? []).map(toParticipant))),
    recipes: jsonRows<RecipeRow>(r.recipes).map((x) => toRecipe(x, ingredients.get(x.id) ?? [])),
    observations: [...observations],
    merges: jsonRows<MergeRow>(r.merges).map(toMerge),
    unitWeights: jsonRows<UnitWeightRow>(r.weights).map(toWeight),
  };
}

const LIST_COLUMNS = ['id', 'household_id', 'plan_id', 'version', 'generated_at', 'completed_at', 'skipped_references', 'added_references', 'trip', 'derived_from', 'fresh_until', 'made_for', 'would_add', 'stale_since', 'person_changes'] satisfies (keyof ListRow)[];

/** A list and its lines from the rows of one left join (line columns prefixed x_). */
function listOf(rows: Record<string, unknown>[]): ShoppingList | null {
  const r = rows[0] as ListRow | undefined;
  if (!r) return null;
  const lines: ShoppingLine[] = [];
  for (const x of rows) {
    if (x['x_id'] === null) continue;
    const line: Record<string, unknown> = {};
    for (const c of LINE_COLUMNS) line[c] = x[`x_${c}`];
    lines.push(toLine(line as unknown as LineRow));
  }
  return {
    ...stampOf(r),
    householdId: r.household_id,
    planId: r.plan_id,
    generatedAt: toDate(r.generated_at),
    skippedReferences: fromJsonText<string[]>(r.skipped_references),
    addedReferences: r.added_references === null ? [] : fromJsonText<string[]>(r.added_references),
    trip: r.trip === null ? null : fromJsonText<TripRecord>(r.trip),
    lines,
    madeFor: fromJsonText<Record<string, MadeForDay>>(r.made_for),
    wouldAdd: fromJsonText<WouldAdd[]>(r.would_add),
    staleSince: r.stale_since === null ? null : toDate(r.stale_since),
    // A list no person has changed since it was kept reads back as it was written: without personChanges.
    ...(r.person_changes === null ? {} : { personChanges: fromJsonText<(Omit<LineChange, 'at'> & { at: string })[]>(r.person_changes).map((c) => ({ ...c, at: new Date(c.at) })) }),
  };
}


/**
 * The household's lists from two reads: the lists (ORDER BY id) and all their lines (ORDER BY list_id, position),
 * each line with its list's id as `x_list_id`. Each run of one list's lines is that list's; a list with no lines
 * has no run.
 */
function listsOf(lists: Record<string, unknown>[], lines: Record<string, unknown>[]): ShoppingList[] {
  const out: ShoppingList[] = [];
  let i = 0;
  for (const list of lists) {
    let end = i;
    while (end < lines.length && lines[end]!['x_list_id'] === list['id']) end++;
    out.push(listOf(end === i ? [{ ...list, x_id: null }] : lines.slice(i, end).map((x) => Object.assign(x, list)))!);
    i = end;
  }
  return out;
}

type StateRow = ListRow & {
  members: number | string;
  revision: number | string | null;
  synced_at: Date | string | null;
  sharing_off: boolean | number | null;
  price_catalogue_on: boolean | number | null;
};

/**
 * The 304 path's one read (membership, the list's stamp, the household's revision, its shopping settings and the
 * food table's sync),
 * written once and run as fixed SQL (`fixedRows`): it runs on every conditional GET of a list.
 */
const STATE_SQL =
  'select (select count(*) from household_members where household_id = ? and account_id = ?) as members, ' +
  '(select revision from household_revisions where household_id = ?) as revision, ' +
  '(select synced_at from food_table_syncs where id = ?) as synced_at, ' +
  'h.sharing_off, h.price_catalogue_on, ' +
  'l.id, l.version, l.completed_at, l.derived_from, l.fresh_until ' +
  'from (select 1 as one) o left join households h on h.id = ? left join shopping_lists l on l.household_id = ? and l.plan_id = ?';

// The list and its lines in one statement, its text built once (no query builder on every read).
const selectList = `SELECT ${[...LIST_COLUMNS.map((c) => `l.${c}`), ...LINE_COLUMNS.map((c) => `x.${c} AS x_${c}`)].join(', ')} FROM shopping_lists l LEFT JOIN shopping_list_lines x ON x.list_id = l.id`;
const byPlanSql = `${selectList} WHERE l.household_id = ? AND l.plan_id = ? ORDER BY x.position`;
// A household's lists and their lines in two statements, not one join: the join repeats each list's columns on each
// of its lines (its JSON texts 40 times over for a list of 40 lines), and the export reads five years of lists.
const ofHouseholdListsSql = `SELECT ${LIST_COLUMNS.join(', ')} FROM shopping_lists WHERE household_id = ? ORDER BY id`;
const ofHouseholdLinesSql = `SELECT ${LINE_COLUMNS.map((c) => `x.${c} AS x_${c}`).join(', ')} FROM shopping_list_lines x WHERE x.list_id IN (SELECT id FROM shopping_lists WHERE household_id = ?) ORDER BY x.list_id, x.position`;
const byLineSql = `${selectList} WHERE l.household_id = ? AND l.id IN (SELECT list_id FROM shopping_list_lines WHERE id = ?) ORDER BY x.position`;
// A removed line is found by its id in the list's person changes (JSON text, written by toJsonText with lineId first);
// only a change sent late asks, and a household has one list a week. The match is checked on the list read.
const byRemovedLineSql = `${selectList} WHERE l.id = (SELECT id FROM shopping_lists WHERE household_id = ? AND person_changes LIKE ? LIMIT 1) ORDER BY x.position`;
const contentColumns = (c: ShoppingListContent) => ({
  generated_at: iso(c.generatedAt),
  completed_at: c.completedAt === null ? null : iso(c.completedAt),
  skipped_references: toJsonText(c.skippedReferences),
  added_references: toJsonText(c.addedReferences),
  trip: c.trip === null ? null : toJsonText(c.trip),
  made_for: toJsonText(c.madeFor),
  would_add: toJsonText(c.wouldAdd),
  stale_since: c.staleSince === null ? null : iso(c.staleSince),
  person_changes: c.personChanges === undefined ? null : toJsonText(c.personChanges),
});
const derivationColumns = (d: Derivation | null) => ({ derived_from: d?.from ?? null, fresh_until: d === null ? null : iso(d.until) });

/** A list read by `sql`; `lock` (Postgres, in a transaction) holds the list's row. */
async function read(db: Knex | Knex.Transaction, sql: string, bindings: readonly string[], lock = false): Promise<ShoppingList | null> {
  const result = await db.raw(lock ? `${sql} FOR UPDATE OF l` : sql, [...bindings]);
  // better-sqlite3 answers the rows, pg a result holding them.
  return listOf((db.client.config.client === 'pg' ? (result as { rows: Record<string, unknown>[] }).rows : result) as Record<string, unknown>[]);
}

export function knexShoppingListStore(knex: Knex): ShoppingListStore {
  const postgres = knex.client.config.client === 'pg';
  const inputs = inputsSql(postgres);
  // A household's pantry log, kept while its revision holds, shared with the pantry store (adapters/knex/speed/pantry-logs.ts):
  // reading and mapping thousands of rows on every derivation is what the revision spares; the one statement
  // carries the check.
  const logs = speedOf(knex).pantryLogs;
  // A trip's pantry evidence and the change's pushes, in the change's transaction.
  const applyEffects = async (trx: Knex.Transaction, householdId: string, e: ListEffects) => {
    const added = (e.addObservations ?? []).map(observationRow);
    for (let i = 0; i < added.length; i += CHUNK) await trx('pantry_observations').insert(added.slice(i, i + CHUNK));
    const removed = [...(e.removeObservations ?? [])];
    for (let i = 0; i < removed.length; i += 500) await trx('pantry_observations').where({ household_id: householdId }).whereIn('id', removed.slice(i, i + 500)).delete();
    const pushes = (e.pushes ?? []).map(outboxRow);
    if (pushes.length > 0) await trx('push_outbox').insert(pushes);
    const other = e.alsoChange;
    if (other) await changeIn(trx, householdId, other.planId, other.fresh.listId, (current) => ({ write: other.decide(current), result: null }));
  };

  /** One list's read-decide-write inside `trx` (its effects too, another list's change among them). */
  async function changeIn<T>(trx: Knex.Transaction, householdId: string, planId: string, listId: string, decide: Parameters<ShoppingListStore['change']>[3]): Promise<{ list: ShoppingList | null; result: T }> {
    // Postgres: the list row's lock orders concurrent changes; SQLite: the one connection does.
    const current = await read(trx, byPlanSql, [householdId, planId], postgres);
    const { write, result, derivation, effects } = decide(current);
    if (write === null) {
      if (!current || derivation === undefined) return { list: current, result: result as T };
      // The same derivation recorded again is no write at all.
      const columns = derivationColumns(derivation);
      if (JSON.stringify(columns) !== JSON.stringify(derivationColumns(current.derivation))) await trx('shopping_lists').where({ id: current.id }).update(columns);
      return { list: { ...current, derivation }, result: result as T };
    }
    let id = listId;
    const kept = derivation === undefined ? (current?.derivation ?? null) : derivation;
    if (current) {
      id = current.id;
      await trx('shopping_lists').where({ id }).update({ ...contentColumns(write), ...derivationColumns(kept), version: trx.raw('version + 1') });
    } else {
      await trx('shopping_lists').insert({ id, household_id: householdId, plan_id: planId, version: 1, ...contentColumns(write), ...derivationColumns(kept) });
    }
    // Lines are compared with the stored ones: gone ones are deleted, new and changed ones (position included)
    // upserted in one statement, unchanged ones left alone.
    const rows = write.lines.map((l, i) => lineRow(id, l, i));
    const stored = new Map((current?.lines ?? []).map((l, i) => [l.id, JSON.stringify(lineRow(id, l, i))]));
    const listed = new Set(rows.map((r) => r.id));
    const gone = [...stored.keys()].filter((lineId) => !listed.has(lineId));
    for (let i = 0; i < gone.length; i += 500) await trx('shopping_list_lines').where({ list_id: id }).whereIn('id', gone.slice(i, i + 500)).delete();
    const changed = rows.filter((r) => stored.get(r.id) !== JSON.stringify(r));
    for (let i = 0; i < changed.length; i += CHUNK) await trx('shopping_list_lines').insert(changed.slice(i, i + CHUNK)).onConflict('id').merge();
    if (effects) await applyEffects(trx, householdId, effects);
    const list: ShoppingList = { id, householdId, planId, version: current ? current.version + 1 : 1, derivation: kept, ...structuredClone(write) };
    return { list, result: result as T };
  }

  const attempt = <T>(householdId: string, planId: string, listId: string, decide: Parameters<ShoppingListStore['change']>[3]) =>
    knex.transaction((trx) => changeIn<T>(trx, householdId, planId, listId, decide));

  return translated<ShoppingListStore>(knex, {
    // A GET of the list (every member's phone, and again after each tick heard): kept by the read cache for the
    // household, dropped with any write to its lists (a change of lines always writes its list's row: changeIn) or
    // to their inputs, by whichever process (watched-tables.ts). Frozen: every reader gets the same one.
    byPlan: (householdId, planId) => speedOf(knex).cachedRead(`list:${householdId}:${planId}`, () => read(knex, byPlanSql, [householdId, planId]), () => true, householdId),
    async ofHousehold(householdId) {
      const rowsOf = (result: unknown) => (postgres ? (result as { rows: Record<string, unknown>[] }).rows : result) as Record<string, unknown>[];
      // In one snapshot when the store is on a transaction (the export's); otherwise a list made between the reads has no lines yet.
      const lists = rowsOf(await knex.raw(ofHouseholdListsSql, [householdId]));
      const lines = rowsOf(await knex.raw(ofHouseholdLinesSql, [householdId]));
      return listsOf(lists, lines);
    },
    async stamp(householdId, planId) {
      const row = (await knex<ListRow>('shopping_lists')
        .where({ household_id: householdId, plan_id: planId })
        .first('id', 'version', 'completed_at', 'derived_from', 'fresh_until')) as ListRow | undefined;
      return row ? stampOf(row) : null;
    },
    byLine: (householdId, lineId) => read(knex, byLineSql, [householdId, lineId]),
    async byRemovedLine(householdId, lineId) {
      // Only a line id of the usual shape is looked for (LIKE's own characters would match more).
      if (!/^[0-9A-Za-z-]+$/.test(lineId)) return null;
      const list = await read(knex, byRemovedLineSql, [householdId, `%"lineId":"${lineId}"%`]);
      return list?.personChanges?.some((c) => c.lineId === lineId && c.change === 'Removed') ? list : null;
    },
    // Kept in the process per household while a member asks (adapters/knex/speed/read-cache.ts): every write it depends
    // on moves household_revisions, shopping_lists or food_table_syncs (migration 0028).
    state: (householdId, planId, accountId) =>
      speedOf(knex).cachedRead(`list-state:${householdId}:${planId}:${accountId}`,
        async () => {
          const [row] = await speedOf(knex).fixedRows<StateRow>(STATE_SQL, [householdId, accountId, householdId, SYNC_ID, householdId, householdId, planId]);
          return {
            member: Number(row!.members) > 0,
            stamp: row!.id === null ? null : stampOf(row!),
            householdRevision: row!.revision === null ? null : String(row!.revision),
            foodTableSyncedAt: row!.synced_at === null ? null : toDate(row!.synced_at),
            settings: row!.sharing_off === null || row!.price_catalogue_on === null ? null : { sharingOff: toBool(row!.sharing_off), priceCatalogueOn: toBool(row!.price_catalogue_on) },
          };
        },
        (state) => state.member,
        householdId,
      ),
    async inputs(householdId, planId) {
      const held = logs.held(householdId);
      const result = await knex.raw(inputs, { h: householdId, p: planId, sync: SYNC_ID, logVersion: held?.version ?? '' });
      // better-sqlite3 answers the rows, pg a result holding them.
      const row = ((postgres ? (result as { rows: InputsRow[] }).rows : result) as InputsRow[])[0]!;
      const log =
        row.observations === null && held
          ? held.log
          : logs.keep(householdId, row.revision === null ? null : String(row.revision), jsonRows<ObservationRow>(row.observations).map(toObservation));
      return toInputs(row, log);
    },
    async change(householdId, planId, fresh, decide) {
      try {
        return await attempt(householdId, planId, fresh.listId, decide);
      } catch (err) {
        // Another request made the plan's list first: decide again against that one.
        if (!isUniqueViolation(err)) throw err;
        return attempt(householdId, planId, fresh.listId, decide);
      }
    },
  }, ['byPlan', 'state']);
}
