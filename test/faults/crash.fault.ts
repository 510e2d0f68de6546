/**
 * kill -9 under write load: the real process (bootstrap/main.ts) takes pantry observations, shopping-line ticks
 * and event runs from concurrent clients and is SIGKILLed at a random moment, then started again on the same
 * database. Every write answered 2xx before the kill must be there afterwards, and no write may be there in part:
 * a run has all its days and every day all its participants; a shopping list has all its lines, its version
 * counts every acknowledged tick, and each line is in its last acknowledged state (or the state of the one tick
 * that was in flight on it when the process died).
 *
 * Why an answered write survives on SQLite (adapters/knex/database.ts, adapters/knex/wal-sync.ts): a commit is in
 * the WAL file, written by the kernel's page cache, before anything answers. Killing the process loses nothing the
 * kernel holds, and in WAL mode synchronous=NORMAL never corrupts, so this suite would pass on NORMAL alone. What
 * NORMAL alone could lose is the last commits on power loss or an OS crash, because it fsyncs the WAL only at
 * checkpoints; so a store call that wrote answers only after an fdatasync of the WAL that began after its commit
 * (group commit, on libuv's thread pool: one fdatasync covers every commit before it, and the event loop never
 * waits for the disk). That is synchronous=FULL's promise without its fsync per commit on the event loop
 * (test/knex/wal-sync.test.ts holds the flush and shows the write waiting). This suite cannot cut the power, so it
 * proves the process-crash half of that promise.
 *
 * Postgres gets the same rounds: the killed process's connections drop, and Postgres rolls their open
 * transactions back.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { Client, freshEmail } from '../support/client.js';
import { recipeBody } from '../support/shopping.js';
import { faultDatabases, killAllStarted, startService, type FaultDatabase, type Service } from './service.js';

const ROUNDS = 3;
const MONDAY = '2030-01-07';
const OBSERVERS = 3;
const TICKERS = 5;
const RUNNERS = 3;
const PARTICIPANTS_PER_DAY = 3; // the owner's attendance and two guest groups

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Status = 'Buy' | 'Purchased';
interface LineTrack {
  readonly id: string;
  /** The state before this round (read from the database). */
  baseline: Status;
  lastAcked: Status | null;
  /** A tick sent after the last acknowledged one whose answer never came (at most one: a line has one ticker). */
  inFlight: Status | null;
}
interface RunSent {
  readonly tag: string;
  readonly from: string;
  readonly days: number;
  ackedIds: string[] | null;
}
interface RoundFigures {
  observations: number;
  ticks: number;
  runs: number;
  inFlight: number;
}

/** Everything the service was asked to write, and what it acknowledged. */
class Ledger {
  readonly observationsAcked = new Set<string>();
  observationsSent = 0;
  readonly runs: RunSent[] = [];
  readonly unexpected: string[] = [];
  ticksAcked = 0;
  ticksInFlight = 0;
}

for (const kind of faultDatabases()) {
  describe(`kill -9 under write load [${kind.name}]`, function () {
    this.timeout(150_000);
    let db: FaultDatabase;
    let inspect: Knex;
    let service: Service;
    let owner: Client;
    let householdId: string;
    let ownerMemberId: string;
    let listId: string;
    let lines: LineTrack[];
    const figures: RoundFigures[] = [];

    before(async () => {
      db = await kind.create();
      service = await startService(db.serviceUrl(), db.dir);
      inspect = db.inspect();
      owner = new Client(service.url);
      const reg = await owner.post('/api/v1/auth/register', { email: freshEmail('fault'), password: 'correct horse battery', displayName: 'Owner' });
      expect(reg.status, reg.text).to.equal(200);
      const h = await owner.post('/api/v1/households', { name: 'Fault' });
      expect(h.status, h.text).to.equal(201);
      householdId = h.json.id;
      ownerMemberId = h.json.members[0].id;
      const base = `/api/v1/households/${householdId}`;
      const plan = await owner.put(`${base}/plans/week/${MONDAY}`);
      expect(plan.status, plan.text).to.equal(200);
      // Four dishes of fifteen foods each, one a day: a list of some sixty lines.
      for (let r = 0; r < 4; r++) {
        const body = recipeBody(`Dish ${r}`, 4, Array.from({ length: 15 }, (_, i) => ({ displayName: `Food ${String.fromCharCode(97 + r)}${String.fromCharCode(97 + i)}`, quantity: 100 + i, unit: 'g' })));
        const dish = await owner.post(`${base}/recipes`, body);
        expect(dish.status, dish.text).to.equal(201);
        const served = await owner.put(`${base}/plans/${plan.json.id}/days/${addDays(MONDAY, r)}`, { recipeId: dish.json.id, portions: 4, note: null });
        expect(served.status, served.text).to.equal(200);
      }
      const list = await owner.get(`${base}/plans/${plan.json.id}/shopping-list`);
      expect(list.status, list.text).to.equal(200);
      expect(list.json.items.length).to.be.greaterThan(40);
      listId = list.json.id;
      lines = (list.json.items as { id: string; status: Status }[]).map((l) => ({ id: l.id, baseline: l.status, lastAcked: null, inFlight: null }));
    });

    after(async () => {
      await killAllStarted();
      await inspect?.destroy();
      await db?.cleanup();
      if (figures.length > 0) {
        const sum = (k: keyof RoundFigures) => figures.reduce((n, f) => n + f[k], 0);
        console.log(
          `      [${kind.name}] ${figures.length} kills; acknowledged: ${sum('observations')} observations, ${sum('ticks')} ticks, ${sum('runs')} runs; ${sum('inFlight')} writes in flight at the kills`,
        );
      }
    });

    /** Runs the clients against the service until it dies; `killAfterMs` later it is SIGKILLed. */
    async function loadAndKill(round: number, killAfterMs: number): Promise<Ledger> {
      const ledger = new Ledger();
      const client = new Client(service.url);
      client.cookie = owner.cookie;
      const base = `/api/v1/households/${householdId}`;
      let dead = false;
      // A request that got no answer (the process died under it) ends its worker; any non-2xx answer is a finding.
      const send = async (method: string, path: string, body: unknown) => {
        try {
          const res = await client.request(method, path, { body });
          if (res.status < 200 || res.status > 299) ledger.unexpected.push(`${method} ${path} ${res.status} ${res.text.slice(0, 200)}`);
          return res;
        } catch {
          dead = true;
          return null;
        }
      };
      const observer = async (w: number) => {
        for (let n = 0; !dead; n++) {
          ledger.observationsSent++;
          const res = await send('POST', `${base}/inventory/observations`, {
            foodKey: `pantry item ${w} ${n % 25}`,
            observationType: 'Purchased',
            quantity: 1 + (n % 7),
            unit: 'stk',
            storageLocation: 'Pantry',
          });
          if (res?.status === 200) ledger.observationsAcked.add(res.json.observationId);
        }
      };
      const ticker = async (w: number) => {
        const mine = lines.filter((_, i) => i % TICKERS === w);
        for (let n = 0; !dead; n++) {
          const line = mine[n % mine.length]!;
          const next: Status = (line.inFlight ?? line.lastAcked ?? line.baseline) === 'Buy' ? 'Purchased' : 'Buy';
          line.inFlight = next;
          ledger.ticksInFlight++;
          const res = await send('PATCH', `${base}/shopping-items/${line.id}`, { status: next });
          if (res?.status === 200) {
            expect(res.json.status).to.equal(next);
            line.lastAcked = next;
            line.inFlight = null;
            ledger.ticksAcked++;
            ledger.ticksInFlight--;
          } else if (res !== null) {
            line.inFlight = null;
            ledger.ticksInFlight--;
          }
        }
      };
      const runner = async (w: number) => {
        for (let n = 0; !dead; n++) {
          const days = 1 + ((w * 7 + n * 3) % 10);
          const from = addDays(MONDAY, (w * 11 + n * 5) % 80);
          const sent: RunSent = { tag: `fault:${round}:${w}:${n}:${randomUUID()}:days=${days}`, from, days, ackedIds: null };
          ledger.runs.push(sent);
          const res = await send('POST', `${base}/events/run`, {
            from,
            through: addDays(from, days - 1),
            eventType: 'Guests',
            servingTime: '18:00',
            availableCookingMinutes: 40,
            notes: sent.tag,
            memberAttendance: [{ householdMemberId: ownerMemberId, isPresent: true, dietaryNotes: null }],
            guests: [
              { guestType: 'Adult', guestCount: 2, dietaryNotes: null, avoids: ['peanøtter'] },
              { guestType: 'Child', guestCount: 1, dietaryNotes: 'liten' },
            ],
          });
          if (res?.status === 201) sent.ackedIds = (res.json as { id: string }[]).map((e) => e.id);
        }
      };
      const workers = [
        ...Array.from({ length: OBSERVERS }, (_, w) => observer(w)),
        ...Array.from({ length: TICKERS }, (_, w) => ticker(w)),
        ...Array.from({ length: RUNNERS }, (_, w) => runner(w)),
      ];
      await sleep(killAfterMs);
      await service.kill9();
      const { signal } = await service.exited;
      expect(signal).to.equal('SIGKILL');
      await Promise.all(workers);
      return ledger;
    }

    async function listState(): Promise<{ version: number; lines: { id: string; position: number; status: string; purchased_quantity: number | string }[] }> {
      const list = (await inspect('shopping_lists').where({ id: listId }).first('version')) as { version: number | string };
      const rows = await inspect('shopping_list_lines').where({ list_id: listId }).orderBy('position').select('id', 'position', 'status', 'purchased_quantity');
      return { version: Number(list.version), lines: rows };
    }

    async function verify(ledger: Ledger, versionBefore: number): Promise<void> {
      expect(ledger.unexpected, 'answers other than 2xx before the kill').to.deep.equal([]);
      if (db.name === 'sqlite') expect(await inspect.raw('pragma integrity_check')).to.deep.equal([{ integrity_check: 'ok' }]);

      // Observations: every acknowledged one is in the log; nothing is there that was never sent.
      const observed = new Set(((await inspect('pantry_observations').where({ household_id: householdId }).select('id')) as { id: string }[]).map((r) => r.id));
      for (const id of ledger.observationsAcked) expect(observed.has(id), `acknowledged observation ${id}`).to.equal(true);

      // Ticks: the list is whole, and each line is where its last acknowledged tick (or the one in flight) left it.
      const list = await listState();
      expect(list.lines.map((l) => l.position), 'line positions').to.deep.equal(list.lines.map((_, i) => i));
      expect(list.lines.map((l) => l.id).sort(), 'the list keeps every line').to.deep.equal(lines.map((l) => l.id).sort());
      expect(list.version, 'the version counts every acknowledged tick').to.be.at.least(versionBefore + ledger.ticksAcked);
      expect(list.version, 'and no more than were sent').to.be.at.most(versionBefore + ledger.ticksAcked + ledger.ticksInFlight);
      const byId = new Map(list.lines.map((l) => [l.id, l]));
      for (const line of lines) {
        const row = byId.get(line.id)!;
        const allowed = [line.lastAcked ?? line.baseline, ...(line.inFlight ? [line.inFlight] : [])];
        expect(allowed, `line ${line.id}`).to.include(row.status);
        expect(Number(row.purchased_quantity) > 0, `line ${line.id} quantity agrees with its status`).to.equal(row.status === 'Purchased');
      }

      // Runs: every acknowledged one whole, and every run in the database (acknowledged or not) whole.
      const events = (await inspect('meal_events').where({ household_id: householdId }).andWhere('notes', 'like', 'fault:%').select('id', 'date', 'notes')) as { id: string; date: string; notes: string }[];
      const parts = (await inspect('meal_event_participants as p')
        .join('meal_events as e', 'e.id', 'p.event_id')
        .where('e.household_id', householdId)
        .groupBy('p.event_id')
        .select('p.event_id')
        .count({ n: '*' })) as { event_id: string; n: number | string }[];
      const partsOf = new Map(parts.map((p) => [p.event_id, Number(p.n)]));
      const byTag = new Map<string, typeof events>();
      for (const e of events) byTag.set(e.notes, [...(byTag.get(e.notes) ?? []), e]);
      for (const [tag, rows] of byTag) {
        const days = Number(/days=(\d+)$/.exec(tag)![1]);
        const dates = rows.map((r) => r.date).sort();
        expect(dates.length, `run ${tag}: every day or none`).to.equal(days);
        expect(dates, `run ${tag}: consecutive days`).to.deep.equal(dates.map((_, i) => addDays(dates[0]!, i)));
        for (const r of rows) expect(partsOf.get(r.id) ?? 0, `run ${tag} day ${r.date}: every participant`).to.equal(PARTICIPANTS_PER_DAY);
      }
      for (const run of ledger.runs.filter((r) => r.ackedIds !== null)) {
        const rows = byTag.get(run.tag) ?? [];
        expect(rows.map((r) => r.id).sort(), `acknowledged run ${run.tag}`).to.deep.equal([...run.ackedIds!].sort());
        expect(rows.map((r) => r.date).sort()[0]).to.equal(run.from);
      }
      // Nothing half-written is left behind by a cascade either: no participant without its event.
      const orphans = await inspect('meal_event_participants').whereNotIn('event_id', inspect('meal_events').select('id')).count({ n: '*' });
      expect(Number((orphans[0] as { n: number | string }).n)).to.equal(0);

      // The next round starts from what the database holds.
      for (const line of lines) {
        line.baseline = byId.get(line.id)!.status as Status;
        line.lastAcked = null;
        line.inFlight = null;
      }
    }

    it(`keeps every acknowledged write and no half-written one over ${ROUNDS} kills`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const versionBefore = (await listState()).version;
        const ledger = await loadAndKill(round, 1500 + Math.floor(Math.random() * 2500));
        service = await startService(db.serviceUrl(), db.dir);
        // The restarted process answers, over the same database.
        const me = new Client(service.url);
        me.cookie = owner.cookie;
        expect((await me.get('/health/ready')).status).to.equal(200);
        expect((await me.get('/api/v1/me')).status).to.equal(200);
        await verify(ledger, versionBefore);
        const runsAcked = ledger.runs.filter((r) => r.ackedIds !== null).length;
        const inFlight = ledger.observationsSent - ledger.observationsAcked.size + ledger.ticksInFlight + (ledger.runs.length - runsAcked);
        figures.push({ observations: ledger.observationsAcked.size, ticks: ledger.ticksAcked, runs: runsAcked, inFlight });
        expect(ledger.observationsAcked.size + ledger.ticksAcked + runsAcked, 'the kill came under load').to.be.greaterThan(0);
      }
    });
  });
}
