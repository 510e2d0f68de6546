/**
 * W3: POST shopping-list/generate against raw SQL doing the same reads and writes, in the same run, on the same
 * database. A plan week holds 7 dinners (one dish a day), so the 21 dinners are three weeks' plans of 7 recipes of
 * 10 ingredients each (the sample catalogue's foods first, so that lines carry prices): 70 lines a week, 210 over
 * the three lists. The pantry holds 40 observations of other foods (read and modelled, covering nothing).
 *
 * Each measured call generates one week's list, cycling over the three weeks. Generate always reads and derives
 * everything and rewrites the list's row, but writes only the lines that changed; so that every call also writes
 * lines, an untimed PUT before each call moves one day's portions (4 ↔ 6): that dish's 10 lines change. The
 * baseline gets the same PUT before each of its calls.
 *
 * Subject: the real service, one connection, calls one after the other (timed at the client, request to answer).
 * Baseline: a bare node:http handler in the same process as the service, over a connection of its own
 * (better-sqlite3, or one pg client in the service's schema), hand-written SQL: one read per table (household,
 * members, revision, food-table sync, plan, days, events, participants, the dishes and their bases by a recursive
 * CTE, ingredients, observations, merges, unit weights, the lines' prices), the aggregation in plain JS (portions,
 * scaling, bases, merging per food and unit, pantry, the cheapest price at the household's chains), then in one
 * transaction: the list and its lines, the list's row updated, changed lines upserted in one statement. It answers
 * the list as JSON. Same rows read, same rows written; no session, no Koa, no validation, no logging.
 *
 * Ratio: subject mean time / baseline mean time (target ≤ 2.0). The note carries the SQL statements of one
 * generate as Server-Timing counts them (the highest seen over the run) and with BEGIN and COMMIT; the row passes
 * only when both are ≤ 10 as well.
 *   tsx scripts/bench/w3-generate.ts [--db sqlite|postgres] [--seconds 5] [--json]
 */
import { createHash } from 'node:crypto';
import { announce, bareJsonServer, orStop, benchDatabase, benchService, emit, progress, rawSqlite, rawTarget, spawnService, stopService, workloadArgs, type BenchRow, type Figures, type RawSqlite, type RawTarget, type ServedWithBaseline } from './lib.js';

const WEEKS = 3;
const DINNERS = 7;
const INGREDIENTS = 10;
const PANTRY = 40;
const STATEMENTS_MAX = 10;

interface Served extends ServedWithBaseline {
  base: string;
  plans: { id: string; dates: string[]; recipes: string[] }[];
  /** Statements of one generate, BEGIN and COMMIT included (counted in the service's process). */
  withTransaction: number;
}

type Row = Record<string, unknown>;

/** A raw connection of the baseline's own: statements prepared once (by their text), a transaction on the one connection. */
interface Raw {
  all(sql: string, values: readonly unknown[]): Promise<Row[]>;
  run(sql: string, values: readonly unknown[]): Promise<void>;
  close(): Promise<void>;
}

async function rawConnection(target: RawTarget): Promise<Raw> {
  if (target.kind === 'sqlite') {
    const db = rawSqlite(target.file);
    const cache = new Map<string, ReturnType<RawSqlite['prepare']>>();
    const prepared = (sql: string) => {
      let s = cache.get(sql);
      // $1 may come more than once: named parameters (@p1) take that, positional ones do not.
      if (!s) cache.set(sql, (s = db.prepare(sql.replace(/\$(\d+)/g, '@p$1'))));
      return s;
    };
    const named = (v: readonly unknown[]) => (v.length === 0 ? [] : [Object.fromEntries(v.map((x, i) => [`p${i + 1}`, x]))]);
    return {
      all: async (sql, v) => prepared(sql).all(...named(v)),
      run: async (sql, v) => void prepared(sql).run(...named(v)),
      close: async () => db.close(),
    };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: target.url, options: `-c search_path=${target.schema}` });
  await client.connect();
  const name = (sql: string) => `w3-${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
  return {
    all: async (sql, v) => (await client.query({ name: name(sql), text: sql, values: [...v] })).rows as Row[],
    // Transaction control is sent as it is; everything else as a named (prepared once) statement.
    run: async (sql, v) => void (await (/^(begin|commit|rollback)$/.test(sql) ? client.query(sql) : client.query({ name: name(sql), text: sql, values: [...v] }))),
    close: () => client.end(),
  };
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
const tidy = (n: number) => Number(n.toPrecision(12));
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

const LINE_COLUMNS = [
  'id', 'list_id', 'position', 'food_key', 'display_name', 'required_quantity', 'unit', 'extra_quantity', 'status', 'purchased_quantity', 'purchased_unit', 'reason_code',
  'have_quantity', 'related_plan_entry_ids', 'is_manual', 'added_after_shopping', 'aisle', 'suggested_price', 'suggested_product_name', 'suggested_price_source',
  'suggested_price_is_aggregate', 'tick_notified',
] as const;

type Bucket = { foodKey: string; displayName: string; unit: string; quantity: number; entries: string[] };
type Aisles = { aisleOf: (foodKey: string) => string; order: readonly string[] };
const bool = (v: unknown) => v === true || v === 1;

/** The baseline's generate: the reads, the aggregation and the writes, by hand. */
function baselineGenerate(raw: Raw, postgres: boolean, aisles: Aisles, newId: () => string) {
  return async (householdId: string, planId: string): Promise<string> => {
    const input = await readInputs(raw, householdId, planId);
    const { buckets, skipped } = aggregate(input);
    const have = pantryHave(input);
    const best = await bestPrices(raw, input.household, buckets);
    return writeList(raw, postgres, aisles, newId, { householdId, planId, input, buckets, skipped, have, best });
  };
}

type Inputs = Awaited<ReturnType<typeof readInputs>>;

/** Every read generate makes before it writes. */
async function readInputs(raw: Raw, householdId: string, planId: string) {
  const household = (await raw.all('select id, chains from households where id = $1', [householdId]))[0]!;
  const members = await raw.all('select id, account_id from household_members where household_id = $1 order by created_at, id', [householdId]);
  const revision = (await raw.all('select revision from household_revisions where household_id = $1', [householdId]))[0]!['revision'];
  const synced = (await raw.all('select synced_at from food_table_syncs where id = $1', ['food-table']))[0];
  const plan = (await raw.all('select id, week_start from plans where id = $1 and household_id = $2', [planId, householdId]))[0]!;
  const days = await raw.all('select id, date, recipe_id, portions_override from plan_days where plan_id = $1 order by date', [planId]);
  const dates = days.map((d) => d['date'] as string);
  const events = await raw.all(`select id, date, event_type from meal_events where household_id = $1 and date >= $2 and date <= $3 order by date, created_at, id`, [householdId, dates[0], dates[dates.length - 1]]);
  const participants = events.length === 0 ? [] : await raw.all(`select event_id, household_member_id, is_present, guest_count from meal_event_participants where event_id in (${events.map((_, i) => `$${i + 1}`).join(', ')})`, events.map((e) => e['id']));
  const recipeRows = await raw.all(
    `with recursive wanted(id) as (select recipe_id from plan_days where plan_id = $1 and recipe_id is not null union select i.base_recipe_id from recipe_ingredients i join wanted w on i.recipe_id = w.id where i.household_id = $2 and i.base_recipe_id is not null)
     select id, title, servings from recipes where household_id = $2 and id in (select id from wanted)`,
    [planId, householdId],
  );
  const ids = recipeRows.map((r) => r['id']);
  const ingredients = await raw.all(`select recipe_id, display_name, food_key, quantity, unit, optional, base_recipe_id, reference from recipe_ingredients where household_id = $1 and recipe_id in (${ids.map((_, i) => `$${i + 2}`).join(', ')}) order by recipe_id, position`, [householdId, ...ids]);
  const observations = await raw.all('select food_key, observation_type, quantity, unit, observed_at from pantry_observations where household_id = $1 order by observed_at, seq', [householdId]);
  const merges = await raw.all('select from_key, to_key from pantry_merges where household_id = $1', [householdId]);
  await raw.all('select food_key, unit, grams from unit_weights where household_id = $1', [householdId]);
  return { household, members, revision, synced, plan, days, events, participants, recipeRows, ingredients, observations, merges };
}

/** Portions per day (the override, else the members at home: events may send some away, or the day out), and the foods they need. */
function aggregate({ days, events, participants, members, recipeRows, ingredients }: Inputs) {
  const recipes = new Map(recipeRows.map((r) => [r['id'] as string, { servings: Number(r['servings']), lines: [] as Row[] }]));
  for (const i of ingredients) recipes.get(i['recipe_id'] as string)?.lines.push(i);
  const buckets = new Map<string, Bucket>();
  const skipped = new Set<string>();
  const expand = (recipeId: string, factor: number, entry: string, depth: number) => {
    const recipe = recipes.get(recipeId);
    if (!recipe || depth > 16) return;
    for (const l of recipe.lines) {
      if (bool(l['optional'])) continue;
      if (l['base_recipe_id'] !== null) {
        expand(l['base_recipe_id'] as string, factor * (l['quantity'] === null ? 1 : Number(l['quantity'])), entry, depth + 1);
        continue;
      }
      if (l['reference'] !== null) {
        skipped.add(l['reference'] as string);
        continue;
      }
      const unit = (l['unit'] as string | null) ?? 'pcs';
      const key = `${l['food_key']}\u0000${unit}`;
      const bucket = buckets.get(key) ?? { foodKey: l['food_key'] as string, displayName: l['display_name'] as string, unit, quantity: 0, entries: [] };
      bucket.quantity = tidy(bucket.quantity + (l['quantity'] === null ? 0 : Number(l['quantity'])) * factor);
      if (!bucket.entries.includes(entry)) bucket.entries.push(entry);
      buckets.set(key, bucket);
    }
  };
  for (const d of days) {
    if (d['recipe_id'] === null) continue;
    const own = events.filter((e) => e['date'] === d['date']);
    if (own.some((e) => e['event_type'] === 'EatingOut' || e['event_type'] === 'Travel')) continue;
    const away = new Set(participants.filter((p) => own.some((e) => e['id'] === p['event_id']) && p['household_member_id'] !== null && !bool(p['is_present'])).map((p) => p['household_member_id']));
    const guests = participants.filter((p) => own.some((e) => e['id'] === p['event_id']) && p['household_member_id'] === null).reduce((n, p) => n + Number(p['guest_count']), 0);
    const portions = d['portions_override'] !== null ? Number(d['portions_override']) : members.filter((m) => !away.has(m['id'])).length + guests;
    const recipe = recipes.get(d['recipe_id'] as string);
    if (recipe && portions > 0) expand(d['recipe_id'] as string, portions / recipe.servings, d['id'] as string, 0);
  }
  return { buckets, skipped };
}

/** The pantry: the newest amount bought of each food (merged foods under their target), counted against its line. */
function pantryHave({ merges, observations }: Inputs) {
  const target = new Map(merges.map((m) => [m['from_key'] as string, m['to_key'] as string]));
  const have = new Map<string, { quantity: number; unit: string | null }>();
  for (const o of observations) if (o['observation_type'] === 'Purchased' && o['quantity'] !== null) have.set(target.get(o['food_key'] as string) ?? (o['food_key'] as string), { quantity: Number(o['quantity']), unit: o['unit'] as string | null });
  return have;
}

/** Prices: the cheapest list price at one of the household's chains, else anywhere. */
async function bestPrices(raw: Raw, household: Row, buckets: ReadonlyMap<string, Bucket>) {
  const keys = [...new Set([...buckets.values()].map((x) => x.foodKey))];
  const products = keys.length === 0 ? [] : await raw.all(`select id, name, food_key, prices from food_products where food_key in (${keys.map((_, i) => `$${i + 1}`).join(', ')})`, keys);
  const chains = new Set(json<string[]>(household['chains']).map((c) => c.toLowerCase()));
  const best = new Map<string, { price: number; name: string; aggregate: boolean }>();
  for (const key of keys) {
    const offers = products.filter((p) => p['food_key'] === key).flatMap((p) => json<{ chain: string; price: number }[]>(p['prices']).map((o) => ({ ...o, name: p['name'] as string })));
    const own = offers.filter((o) => chains.has(o.chain.toLowerCase()));
    const pool = (own.length > 0 ? own : offers).sort((x, y) => x.price - y.price);
    if (pool[0]) best.set(key, { price: pool[0].price, name: pool[0].name, aggregate: own.length === 0 });
  }
  return best;
}

interface Derived {
  readonly householdId: string;
  readonly planId: string;
  readonly input: Inputs;
  readonly buckets: ReadonlyMap<string, Bucket>;
  readonly skipped: ReadonlySet<string>;
  readonly have: ReadonlyMap<string, { quantity: number; unit: string | null }>;
  readonly best: ReadonlyMap<string, { price: number; name: string; aggregate: boolean }>;
}

/** One transaction: the stored list and its lines, the list's row, the changed lines in one upsert. */
async function writeList(raw: Raw, postgres: boolean, { aisleOf, order }: Aisles, newId: () => string, { householdId, planId, input, buckets, skipped, have, best }: Derived): Promise<string> {
  const { revision, synced, plan } = input;
  const rank = (foodKey: string) => order.indexOf(aisleOf(foodKey));
  const b = (v: boolean) => (postgres ? v : v ? 1 : 0);
  const upsert = (n: number) => {
    const tuples = Array.from({ length: n }, (_, r) => `(${LINE_COLUMNS.map((_, c) => `$${r * LINE_COLUMNS.length + c + 1}`).join(', ')})`).join(', ');
    const set = LINE_COLUMNS.filter((c) => c !== 'id').map((c) => `${c} = excluded.${c}`).join(', ');
    return `insert into shopping_list_lines (${LINE_COLUMNS.join(', ')}) values ${tuples} on conflict (id) do update set ${set}`;
  };
  await raw.run(postgres ? 'begin' : 'begin immediate', []);
  try {
    const stored = await raw.all(
      `select l.id, l.version, x.id as line_id, x.food_key, x.unit, x.extra_quantity, x.status, x.purchased_quantity, x.purchased_unit, x.is_manual, x.added_after_shopping, x.tick_notified, x.position, x.required_quantity, x.have_quantity, x.suggested_price
       from shopping_lists l left join shopping_list_lines x on x.list_id = l.id where l.household_id = $1 and l.plan_id = $2 order by x.position${postgres ? ' for update of l' : ''}`,
      [householdId, planId],
    );
    const listId = stored[0]!['id'] as string;
    const lines = [...buckets.values()]
      // The list's order: aisle, then food, then unit.
      .sort((x, y) => rank(x.foodKey) - rank(y.foodKey) || (x.foodKey < y.foodKey ? -1 : x.foodKey > y.foodKey ? 1 : 0) || (x.unit < y.unit ? -1 : x.unit > y.unit ? 1 : 0))
      .flatMap((x) => {
        const h = have.get(x.foodKey);
        const held = h && (h.unit ?? 'pcs') === x.unit ? h.quantity : 0;
        return held >= x.quantity ? [] : [{ ...x, have: held }];
      });
    const used = new Set<string>();
    const rows = lines.map((l, position) => {
      const match = stored.find((s) => s['line_id'] !== null && !used.has(s['line_id'] as string) && s['food_key'] === l.foodKey && s['unit'] === l.unit);
      if (match) used.add(match['line_id'] as string);
      const price = best.get(l.foodKey);
      const extra = match ? Number(match['extra_quantity']) : 0;
      return {
        row: [
          match?.['line_id'] ?? newId(), listId, position, l.foodKey, l.displayName, tidy(l.quantity + extra), l.unit, extra, match?.['status'] ?? 'Buy',
          match ? Number(match['purchased_quantity']) : 0, match?.['purchased_unit'] ?? null, l.have > 0 ? 'PartlyInPantry' : 'Planned', l.have, JSON.stringify(l.entries),
          b(match ? bool(match['is_manual']) : false), b(match ? bool(match['added_after_shopping']) : false), aisleOf(l.foodKey), price?.price ?? null, price?.name ?? null,
          price ? 'FoodTable' : 'None', b(price?.aggregate ?? false), b(match ? bool(match['tick_notified']) : false),
        ],
        changed: !match || Number(match['position']) !== position || Number(match['required_quantity']) !== tidy(l.quantity + extra) || Number(match['have_quantity']) !== l.have || (match['suggested_price'] === null ? null : Number(match['suggested_price'])) !== (price?.price ?? null),
      };
    });
    const derivedFrom = `${revision}/${synced ? iso(synced['synced_at']) : 'unsynced'}`;
    const now = new Date().toISOString();
    await raw.run(
      'update shopping_lists set generated_at = $1, skipped_references = $2, derived_from = $3, fresh_until = $4, version = version + 1 where id = $5',
      [now, JSON.stringify([...skipped]), derivedFrom, new Date(Date.now() + 86_400_000).toISOString(), listId],
    );
    const changed = rows.filter((r) => r.changed).map((r) => r.row);
    if (changed.length > 0) await raw.run(upsert(changed.length), changed.flat());
    await raw.run('commit', []);
    return JSON.stringify({ id: listId, householdId, weeklyPlanId: plan['id'], generatedAt: now, items: rows.map((r) => Object.fromEntries(LINE_COLUMNS.map((c, i) => [c, r.row[i]]))) });
  } catch (err) {
    await raw.run('rollback', []);
    throw err;
  }
}

async function serve(): Promise<void> {
  const { aisleOf, AISLES } = await import('../../core/pantry/model.js');
  const { randomUUID } = await import('node:crypto');
  const database = benchDatabase();
  const service = await benchService('w3', database);
  const { runtime, app, call, cookie, householdId } = service;
  await orStop(app, async () => {
    const base = `/api/v1/households/${householdId}`;
    await call('PATCH', base, cookie, { chains: ['Kiwi'] });
    const known = [...new Set((await runtime.deps.foodSource.load()).map((p) => p.foodKey))];
    const foods = Array.from({ length: WEEKS * DINNERS * INGREDIENTS }, (_, i) => known[i] ?? `benchvare ${i}`);
    const monday = new Date();
    const plans: Served['plans'] = [];
    for (let w = 0; w < WEEKS; w++) {
      const date = new Date(monday.getTime() + w * 7 * 86_400_000).toISOString().slice(0, 10);
      const plan = (await (await call('PUT', `${base}/plans/week/${date}`, cookie)).json()) as { id: string; days: { date: string }[] };
      const recipes: string[] = [];
      for (let d = 0; d < DINNERS; d++) {
        const first = (w * DINNERS + d) * INGREDIENTS;
        const ingredients = foods.slice(first, first + INGREDIENTS).map((f, i) => ({ displayName: f, quantity: 100 + i, unit: 'g', optional: false, baseRecipeId: null, reference: null }));
        const recipe = (await (await call('POST', `${base}/recipes`, cookie, { title: `Middag ${w + 1}.${d + 1}`, servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients })).json()) as { id: string };
        recipes.push(recipe.id);
        await call('PUT', `${base}/plans/${plan.id}/days/${plan.days[d]!.date}`, cookie, { recipeId: recipe.id, portions: 4, note: null });
      }
      plans.push({ id: plan.id, dates: plan.days.map((x) => x.date), recipes });
    }
    for (let i = 0; i < PANTRY; i++) {
      await call('POST', `${base}/inventory/observations`, cookie, { foodKey: `pantryvare ${i}`, observationType: 'Purchased', quantity: 1 + (i % 3), unit: 'pcs', storageLocation: 'Pantry' });
    }
    // The lists exist before either side is measured; the baseline updates them as generate does.
    for (const p of plans) await call('POST', `${base}/plans/${p.id}/shopping-list/generate`, cookie);

    // Statements of one generate with BEGIN and COMMIT (Server-Timing leaves those two out): nothing else runs now.
    let sent = 0;
    const count = () => void (sent += 1);
    const p0 = plans[0]!;
    await call('PUT', `${base}/plans/${p0.id}/days/${p0.dates[0]}`, cookie, { recipeId: p0.recipes[0], portions: 6, note: null });
    runtime.db.knex.on('query', count);
    await call('POST', `${base}/plans/${p0.id}/shopping-list/generate`, cookie);
    runtime.db.knex.removeListener('query', count);
    await call('PUT', `${base}/plans/${p0.id}/days/${p0.dates[0]}`, cookie, { recipeId: p0.recipes[0], portions: 4, note: null });

    const raw = await rawConnection(rawTarget(service, database));
    const generate = baselineGenerate(raw, database.kind === 'postgres', { aisleOf, order: AISLES }, randomUUID);
    // One at a time, as the driver sends them; the baseline's transaction owns the connection meanwhile.
    const bare = await bareJsonServer((req) => {
      const planId = /^\/generate\/([0-9a-f-]{36})$/.exec(req.url ?? '')?.[1];
      return req.method === 'POST' && planId ? generate(householdId, planId) : null;
    });
    const bareUrl = bare.url;
    announce({ appUrl: app.url, bareUrl, cookie, base, plans, withTransaction: sent } satisfies Served, async () => {
      bare.close();
      await raw.close();
      await app.stop();
    });
  });
}

/** Figures of sequential calls: req/s is calls over the time spent in them (the untimed PUTs left out). */
function figures(ms: number[], unexpected: number): Figures {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const total = ms.reduce((a, b) => a + b, 0);
  return { rps: total > 0 ? (ms.length * 1000) / total : 0, mean: total / Math.max(1, ms.length), p50: Math.round(at(0.5)), p99: Math.round(at(0.99)), unexpected };
}

async function drive(): Promise<void> {
  const { db, seconds, json: asJson } = workloadArgs();
  progress(`W3 ${db}: seeding ${WEEKS * DINNERS} dinners over ${WEEKS} weeks`);
  const { info, child } = await spawnService<Served>('scripts/bench/w3-generate.ts');
  try {
    const headers = { Cookie: info.cookie, 'Content-Type': 'application/json' };
    let turn = 0;
    let statements = 0;
    let lines = 0;
    /** One call: the untimed PUT that moves a day's portions, then the timed generate. */
    const once = async (generate: (planId: string) => Promise<Response>): Promise<{ ms: number; ok: boolean }> => {
      const p = info.plans[turn % WEEKS]!;
      const day = Math.floor(turn / WEEKS) % DINNERS;
      const portions = Math.floor(turn / (WEEKS * DINNERS)) % 2 === 0 ? 6 : 4;
      turn += 1;
      const put = await fetch(`${info.appUrl}${info.base}/plans/${p.id}/days/${p.dates[day]}`, { method: 'PUT', headers, body: JSON.stringify({ recipeId: p.recipes[day], portions, note: null }) });
      await put.arrayBuffer();
      const t0 = process.hrtime.bigint();
      const res = await generate(p.id);
      const body = await res.text();
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const n = Number(/desc="(\d+) queries"/.exec(res.headers.get('Server-Timing') ?? '')?.[1] ?? 0);
      if (n > statements) statements = n;
      if (res.status === 200) lines = Math.max(lines, (JSON.parse(body) as { items: unknown[] }).items.length);
      return { ms, ok: put.status === 200 && res.status === 200 };
    };
    const run = async (generate: (planId: string) => Promise<Response>): Promise<Figures> => {
      // Warm-up: 2 s, as measure() does.
      for (const end = Date.now() + 2000; Date.now() < end; ) await once(generate);
      const ms: number[] = [];
      let unexpected = 0;
      for (const end = Date.now() + seconds * 1000; Date.now() < end; ) {
        const r = await once(generate);
        ms.push(r.ms);
        if (!r.ok) unexpected += 1;
      }
      return figures(ms, unexpected);
    };
    progress(`W3 ${db}: raw SQL through bare node:http`);
    const baseline = await run((planId) => fetch(`${info.bareUrl}/generate/${planId}`, { method: 'POST' }));
    const baselineLines = lines;
    lines = 0;
    progress(`W3 ${db}: POST generate`);
    const subject = await run((planId) => fetch(`${info.appUrl}${info.base}/plans/${planId}/shopping-list/generate`, { method: 'POST', headers: { Cookie: info.cookie } }));
    const ratio = baseline.mean > 0 ? subject.mean / baseline.mean : Infinity;
    const bad = subject.unexpected + baseline.unexpected;
    const counted = statements <= STATEMENTS_MAX && info.withTransaction <= STATEMENTS_MAX;
    const notes = [
      `${statements} SQL statements (≤ ${STATEMENTS_MAX}), ${info.withTransaction} with BEGIN/COMMIT`,
      `${WEEKS * DINNERS} dinners over ${WEEKS} weeks, ${lines} lines a week (baseline ${baselineLines}), one week a call, 1 connection; an untimed PUT before each call changes 10 lines`,
      bad > 0 ? `INVALID: ${subject.unexpected} + ${baseline.unexpected} unexpected answers` : undefined,
      lines !== baselineLines ? 'INVALID: the baseline derived another number of lines' : undefined,
    ].filter(Boolean);
    const row: BenchRow = {
      workload: 'W3',
      db,
      subject: 'POST shopping-list/generate',
      baseline: 'raw SQL, same reads and writes, bare node:http',
      subjectFigures: subject,
      baselineFigures: baseline,
      ratio,
      target: '≤ 2.0',
      pass: bad === 0 && lines === baselineLines && counted && ratio <= 2,
      note: notes.join('; '),
    };
    emit([row], asJson);
  } finally {
    await stopService(child);
  }
}

await (process.argv.includes('--serve') ? serve() : drive());
