import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { HouseholdChange } from '../../ports/household-changes.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

const t0 = at('2026-05-01T10:00:00.000Z');

/** Resolves once `heard` holds a change `wanted` accepts; rejects after `ms`. */
async function hears(heard: HouseholdChange[], wanted: (c: HouseholdChange) => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!heard.some(wanted)) {
    if (Date.now() > until) throw new Error(`not heard within ${ms} ms: ${JSON.stringify(heard)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function householdChangesContract(backend: Backend): void {
  storeSuite(backend, 'HouseholdChangeFeed', (s) => {
    const stops: (() => void)[] = [];
    afterEach(() => {
      for (const stop of stops.splice(0)) stop();
    });

    const plan = (householdId: string) =>
      s.plans.getOrCreate(householdId, '2026-05-04', { planId: randomUUID(), dayIds: Array.from({ length: 7 }, () => randomUUID()), at: t0 });
    const writeList = (householdId: string, planId: string) =>
      s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, () => ({
        write: { generatedAt: t0, completedAt: null, skippedReferences: [], addedReferences: [], trip: null, lines: [], madeFor: {}, wouldAdd: [], staleSince: null },
        result: null,
      }));

    /** Watches, and waits until the watch is known to be listening (a first write has been heard). */
    async function watching(householdId: string): Promise<HouseholdChange[]> {
      const heard: HouseholdChange[] = [];
      stops.push(s.changes.watch((c) => heard.push(c)));
      await s.households.update(householdId, { dinnerTime: '17:00' }, t0);
      await hears(heard, (c) => c.kind === 'household');
      heard.length = 0;
      return heard;
    }

    it("answers each known household's state, leaves out an unknown one, and keeps the state over reads", async () => {
      const a = await ownedHousehold(s);
      const b = await ownedHousehold(s);
      const unknown = randomUUID();
      const first = await s.changes.states([a.id, b.id, unknown]);
      expect([...first.keys()].sort()).to.deep.equal([a.id, b.id].sort());
      expect(first.get(a.id)).to.be.a('string');
      await s.households.byId(a.id);
      await s.recipes.page(a.id, { titleKeyContains: null, after: null, limit: 10 });
      expect(await s.changes.states([a.id, b.id, unknown])).to.deep.equal(first);
      expect((await s.changes.states([])).size).to.equal(0);
    });

    it("moves a household's state on a write to what its members see, and on a list's content write, for that household only", async () => {
      const a = await ownedHousehold(s);
      const b = await ownedHousehold(s);
      const p = await plan(a.id);
      const steps: Array<[string, () => Promise<unknown>]> = [
        ['recipe created', () => s.recipes.create(a.id, randomUUID(), { title: 'Taco', servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [], sourceUrl: null, imageUrl: null }, t0)],
        ['list made', () => writeList(a.id, p.id)],
        ['list written again', () => writeList(a.id, p.id)],
        ['member added', () => s.households.addMember(a.id, { id: randomUUID(), displayName: 'Ola', role: 'Junior', accountId: null, createdAt: t0 })],
      ];
      const seen: string[] = [];
      for (const [name, write] of steps) {
        const before = await s.changes.states([a.id, b.id]);
        await write();
        const after = await s.changes.states([a.id, b.id]);
        seen.push(`${name}: moved=${after.get(a.id) !== before.get(a.id)} other kept=${after.get(b.id) === before.get(b.id)}`);
      }
      expect(seen).to.deep.equal(steps.map(([name]) => `${name}: moved=true other kept=true`));
    });

    it("tells a watcher of a list's write and of a sign-in's end, and tells nothing once stopped", async () => {
      const a = await ownedHousehold(s);
      const p = await plan(a.id);
      const heard = await watching(a.id);
      await writeList(a.id, p.id);
      // The household itself, or every household where the store cannot tell them apart.
      await hears(heard, (c) => c.kind === 'household' && (c.householdId === a.id || c.householdId === null));

      const tokenHash = randomUUID();
      await s.sessions.create({ tokenHash, accountId: a.owner.id, securityStamp: a.owner.securityStamp, createdAt: t0, expiresAt: at('2026-06-01T00:00:00.000Z') });
      heard.length = 0;
      await s.sessions.delete(tokenHash);
      await hears(heard, (c) => c.kind === 'access');

      for (const stop of stops.splice(0)) stop();
      heard.length = 0;
      await writeList(a.id, p.id);
      await new Promise((r) => setTimeout(r, 300));
      expect(heard).to.deep.equal([]);
    });
    it("tells no change of who may see what for a list's write, and tells one for a membership's", async () => {
      const a = await ownedHousehold(s);
      const p = await plan(a.id);
      const heard = await watching(a.id);
      // What the watching's own write told may still be on its way (Postgres): let it arrive before counting.
      await new Promise((r) => setTimeout(r, 200));
      heard.length = 0;
      await writeList(a.id, p.id);
      await hears(heard, (c) => c.kind === 'household');
      await new Promise((r) => setTimeout(r, 200));
      // A tick on a list need not have every open stream's sign-in read again (W11, docs/performance.md). SQLite without
      // the speed layer has no read connection to count the cached tables' changes with, and tells it of every write.
      const canTell = backend.name !== 'sqlite, speed layer off';
      expect(heard.filter((c) => c.kind === 'access')).to.have.length(canTell ? 0 : 1);
      await s.households.addMember(a.id, { id: randomUUID(), displayName: 'Ola', role: 'Junior', accountId: null, createdAt: t0 });
      await hears(heard, (c) => c.kind === 'access');
    });
  });
}
