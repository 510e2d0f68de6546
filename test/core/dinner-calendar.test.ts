import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Account } from '../../core/accounts/types.js';
import {
  dinnerCalendarOf,
  readDinnerCalendarLink,
  resetDinnerCalendarLink,
  turnOffDinnerCalendarLink,
  type DinnerCalendar,
} from '../../core/calendar/dinner-calendar.js';
import { instantAt } from '../../core/calendar/wall-clock.js';
import type { MealEvent } from '../../core/events/types.js';
import { createHousehold } from '../../core/households/households.js';
import type { RecipeContent } from '../../core/recipes/types.js';
import type { PlanStore } from '../../ports/plan-store.js';
import { newAccount } from '../contracts/fixtures.js';
import { domain, error, value } from './support.js';

type Deps = ReturnType<typeof domain>['deps'];

async function account(deps: Deps): Promise<Account> {
  const a = await deps.accounts.create(newAccount());
  if (a === 'email-taken') throw new Error('email taken');
  return a;
}

async function setup() {
  const { deps, clock } = domain(); // now: Monday 2026-05-04 11:00 in Oslo
  const owner = await account(deps);
  const h = value(await createHousehold(deps, owner, { name: 'Hansen' }));
  const plans = deps.plans as PlanStore;
  const recipe = async (title: string, minutes: Partial<Pick<RecipeContent, 'activeMinutes' | 'totalMinutes'>> = {}) => {
    const content: RecipeContent = { title, servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [], sourceUrl: null, imageUrl: null, ...minutes };
    const id = randomUUID();
    await deps.recipes.create(h.id, id, content, clock.now());
    return id;
  };
  const dish = async (date: string, recipeId: string | null) => {
    const plan = await plans.getOrCreate(h.id, weekOf(date), { planId: randomUUID(), dayIds: Array.from({ length: 7 }, () => randomUUID()), at: clock.now() });
    await plans.setDay(h.id, plan.id, date, { recipeId, portionsOverride: null, note: null }, clock.now());
  };
  const event = async (date: string, over: Partial<MealEvent> = {}) => {
    await deps.events.create([
      { id: randomUUID(), householdId: h.id, date, eventType: 'Activity', servingTime: null, availableCookingMinutes: null, notes: null, participants: [], createdAt: clock.now(), updatedAt: clock.now(), ...over },
    ]);
  };
  const feed = async (): Promise<DinnerCalendar> => {
    const token = value(await readDinnerCalendarLink(deps, owner, h.id)).token!;
    return value(await dinnerCalendarOf(deps, token));
  };
  return { deps, clock, owner, h, recipe, dish, event, feed };
}

function weekOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

describe('dinner calendar (domain)', () => {
  describe('wall time to instant', () => {
    it('follows the household\'s zone across both DST changes', () => {
      expect(instantAt('Europe/Oslo', '2026-03-28', '18:00').toISOString()).to.equal('2026-03-28T17:00:00.000Z');
      expect(instantAt('Europe/Oslo', '2026-03-29', '18:00').toISOString()).to.equal('2026-03-29T16:00:00.000Z');
      expect(instantAt('Europe/Oslo', '2026-10-24', '18:00').toISOString()).to.equal('2026-10-24T16:00:00.000Z');
      expect(instantAt('Europe/Oslo', '2026-10-25', '18:00').toISOString()).to.equal('2026-10-25T17:00:00.000Z');
      expect(instantAt('Asia/Kolkata', '2026-01-01', '18:00').toISOString()).to.equal('2026-01-01T12:30:00.000Z');
      expect(instantAt('America/New_York', '2026-07-01', '00:00').toISOString()).to.equal('2026-07-01T04:00:00.000Z');
    });

    it('takes the earlier of a repeated hour and moves a skipped one past the gap', () => {
      expect(instantAt('Europe/Oslo', '2026-10-25', '02:30').toISOString()).to.equal('2026-10-25T00:30:00.000Z');
      expect(instantAt('Europe/Oslo', '2026-03-29', '02:30').toISOString()).to.equal('2026-03-29T01:30:00.000Z');
      expect(instantAt('America/New_York', '2026-03-08', '02:30').toISOString()).to.equal('2026-03-08T07:30:00.000Z');
    });
  });

  describe('the link', () => {
    it('is drawn on the first read, once, and read back the same by every member', async () => {
      const { deps, owner, h } = await setup();
      const reads = await Promise.all([0, 1, 2, 3].map(() => readDinnerCalendarLink(deps, owner, h.id)));
      const tokens = new Set(reads.map((r) => value(r).token));
      expect(tokens.size).to.equal(1);
      const [token] = [...tokens];
      expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
      const junior = await account(deps);
      await deps.households.addMember(h.id, { id: randomUUID(), displayName: 'Junior', role: 'Junior', accountId: junior.id, createdAt: new Date(0) });
      expect(value(await readDinnerCalendarLink(deps, junior, h.id)).token).to.equal(token);
      expect(error(await resetDinnerCalendarLink(deps, junior, h.id))).to.equal('adults-only');
      expect(error(await turnOffDinnerCalendarLink(deps, junior, h.id))).to.equal('adults-only');
      const stranger = await account(deps);
      expect(error(await readDinnerCalendarLink(deps, stranger, h.id))).to.equal('household-not-found');
    });

    it('reset draws a new token; turned off reads null and stays off until a reset', async () => {
      const { deps, owner, h } = await setup();
      const first = value(await readDinnerCalendarLink(deps, owner, h.id)).token!;
      const second = value(await resetDinnerCalendarLink(deps, owner, h.id)).token!;
      expect(second).to.not.equal(first);
      expect(error(await dinnerCalendarOf(deps, first))).to.equal('dinner-calendar-not-found');
      expect(error(await dinnerCalendarOf(deps, second))).to.equal('ok');
      expect(error(await turnOffDinnerCalendarLink(deps, owner, h.id))).to.equal('ok');
      expect(error(await turnOffDinnerCalendarLink(deps, owner, h.id))).to.equal('ok');
      expect(value(await readDinnerCalendarLink(deps, owner, h.id)).token).to.equal(null);
      expect(error(await dinnerCalendarOf(deps, second))).to.equal('dinner-calendar-not-found');
      const third = value(await resetDinnerCalendarLink(deps, owner, h.id)).token!;
      expect(value(await readDinnerCalendarLink(deps, owner, h.id)).token).to.equal(third);
    });

    it('a household turned off before anyone read it stays off', async () => {
      const { deps, owner, h } = await setup();
      value(await turnOffDinnerCalendarLink(deps, owner, h.id));
      expect(value(await readDinnerCalendarLink(deps, owner, h.id)).token).to.equal(null);
    });

    it('malformed and unknown tokens fail alike', async () => {
      const { deps } = await setup();
      for (const token of ['', 'short', 'x'.repeat(129), 'has space in it and is long enough', 'ÆØÅæøåÆØÅæøåÆØÅæøåÆØÅæøå', 'A'.repeat(43)]) {
        expect(error(await dinnerCalendarOf(deps, token))).to.equal('dinner-calendar-not-found');
      }
    });
  });

  describe('the dinners', () => {
    it('one per day cooked at home with a dish, from 14 days back to 42 ahead', async () => {
      const { recipe, dish, event, feed } = await setup();
      const taco = await recipe('Taco', { totalMinutes: 30 });
      for (const date of ['2026-04-19', '2026-04-20', '2026-05-04', '2026-05-05', '2026-05-06', '2026-06-15', '2026-06-16']) await dish(date, taco);
      await dish('2026-05-07', null); // no dish
      await event('2026-05-05', { eventType: 'EatingOut' });
      await event('2026-05-06', { eventType: 'Guests' }); // still at home
      const c = await feed();
      expect(c.householdName).to.equal('Hansen');
      expect(c.timeZoneId).to.equal('Europe/Oslo');
      expect(c.dinners.map((d) => d.date)).to.deep.equal(['2026-04-20', '2026-05-04', '2026-05-06', '2026-06-15']);
      expect(c.dinners[1]).to.deep.equal({ date: '2026-05-04', title: 'Taco', start: new Date('2026-05-04T15:30:00.000Z'), end: new Date('2026-05-04T16:00:00.000Z') });
    });

    it('serves at the earliest servingTime of the day\'s events, else at dinnerTime; cooks by recipe, events, or 45 minutes', async () => {
      const { deps, h, recipe, dish, event, feed } = await setup();
      await deps.households.update(h.id, { dinnerTime: '17:30' }, new Date(0));
      const total = await recipe('Lasagne', { activeMinutes: 40, totalMinutes: 90 });
      const active = await recipe('Omelett', { activeMinutes: 15, totalMinutes: 0 });
      const none = await recipe('Rester');
      await dish('2026-05-11', total);
      await event('2026-05-11', { servingTime: '19:00' });
      await event('2026-05-11', { servingTime: '18:15', availableCookingMinutes: 20 });
      await dish('2026-05-12', active);
      await dish('2026-05-13', none);
      await event('2026-05-13', { availableCookingMinutes: 60 });
      await event('2026-05-13', { availableCookingMinutes: 25 });
      await dish('2026-05-14', none);
      const byDate = new Map((await feed()).dinners.map((d) => [d.date, [d.start.toISOString(), d.end.toISOString()]]));
      expect(byDate.get('2026-05-11')).to.deep.equal(['2026-05-11T14:45:00.000Z', '2026-05-11T16:15:00.000Z']);
      expect(byDate.get('2026-05-12')).to.deep.equal(['2026-05-12T15:15:00.000Z', '2026-05-12T15:30:00.000Z']);
      expect(byDate.get('2026-05-13')).to.deep.equal(['2026-05-13T15:05:00.000Z', '2026-05-13T15:30:00.000Z']);
      expect(byDate.get('2026-05-14')).to.deep.equal(['2026-05-14T14:45:00.000Z', '2026-05-14T15:30:00.000Z']);
    });

    it('follows the household\'s today: the window moves with the clock in its zone', async () => {
      const { clock, recipe, dish, feed } = await setup();
      const soup = await recipe('Suppe');
      await dish('2026-04-20', soup);
      expect((await feed()).dinners.map((d) => d.date)).to.deep.equal(['2026-04-20']);
      clock.set(new Date('2026-05-04T22:30:00.000Z')); // already 5 May in Oslo
      expect((await feed()).dinners).to.deep.equal([]);
    });
  });
});
