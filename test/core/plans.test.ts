import { expect } from 'chai';
import { addDays, dateIn, daysBetween, isIsoDate, weekStartOf } from '../../core/kernel/dates.js';
import { deriveDay } from '../../core/events/portions.js';
import type { MealEvent, MealEventParticipant } from '../../core/events/types.js';
import type { Member } from '../../core/households/types.js';
import type { Ingredient, Recipe } from '../../core/recipes/types.js';
import { dishConflict } from '../../core/events/avoid-gate.js';
import { servingNotesOf } from '../../core/plans/serving-notes.js';
import { normalizeFoodKey } from '../../core/kernel/food-key.js';

const member = (id: string, role: Member['role'] = 'Adult', ageGroup: Member['ageGroup'] = 'Adult'): Member => ({ id, householdId: 'h', displayName: id, role, ageGroup, accountId: null, createdAt: new Date(0) });
const attendance = (memberId: string, isPresent: boolean): MealEventParticipant => ({ id: `p-${memberId}`, householdMemberId: memberId, isPresent, guestType: null, guestCount: 0, dietaryNotes: null, avoids: [] });
const guests = (guestType: 'Adult' | 'Child' | 'Baby', guestCount: number, avoids: string[] = []): MealEventParticipant => ({ id: `g-${guestType}`, householdMemberId: null, isPresent: true, guestType, guestCount, dietaryNotes: null, avoids });
const event = (eventType: MealEvent['eventType'], participants: MealEventParticipant[], id: string = eventType): MealEvent => ({
  id, householdId: 'h', date: '2026-11-23', eventType, servingTime: null, availableCookingMinutes: null, notes: null, participants, createdAt: new Date(0), updatedAt: new Date(0),
});

describe('dates', () => {
  it('finds the Monday of a week, across months and years', () => {
    expect(weekStartOf('2026-11-22')).to.equal('2026-11-16'); // a Sunday
    expect(weekStartOf('2026-11-23')).to.equal('2026-11-23'); // a Monday
    expect(weekStartOf('2027-01-01')).to.equal('2026-12-28');
    expect(addDays('2026-03-28', 2)).to.equal('2026-03-30'); // over the DST change in Europe
    expect(daysBetween('2026-02-27', '2026-03-01')).to.equal(2);
  });

  it('knows real dates and the date in a time zone', () => {
    expect(isIsoDate('2026-02-28')).to.equal(true);
    expect(isIsoDate('2026-02-29')).to.equal(false);
    expect(isIsoDate('2026-2-28')).to.equal(false);
    const lateUtc = new Date('2026-11-22T23:30:00Z');
    expect(dateIn('Europe/Oslo', lateUtc)).to.equal('2026-11-23');
    expect(dateIn('America/New_York', lateUtc)).to.equal('2026-11-22');
  });
});

describe('derived portions (domain)', () => {
  const family = [member('mor', 'Owner'), member('far'), member('barn', 'Junior')];

  it('counts every member on a day without events', () => {
    expect(deriveDay(family, [])).to.deep.equal({ portions: 3, cookedAtHome: true, avoids: [], eventIds: [] });
  });

  it('adds guests by weight, rounded up, and gathers their avoids', () => {
    const d = deriveDay(family, [event('Guests', [guests('Adult', 2, ['Peanuts']), guests('Child', 1, ['peanuts', 'Shellfish']), guests('Baby', 1)])]);
    expect(d.portions).to.equal(Math.ceil(3 + 2 + 0.5));
    expect(d.avoids).to.deep.equal(['Peanuts', 'Shellfish']);
    expect(d.eventIds).to.deep.equal(['Guests']);
  });

  it('removes an absent member, and PersonPresent brings one back', () => {
    expect(deriveDay(family, [event('PersonAbsent', [attendance('far', false)])]).portions).to.equal(2);
    const travel = event('Custom', [attendance('mor', false), attendance('far', false)], 'away');
    expect(deriveDay(family, [travel, event('PersonPresent', [attendance('far', true)])]).portions).to.equal(2);
  });

  it('weighs members by age group as guests are: two adults and a child are 3 portions (2.5 rounded up), a baby none', () => {
    const small = [member('mor', 'Owner'), member('far'), member('lille', 'Adult', 'Child')];
    expect(deriveDay(small, []).portions).to.equal(3);
    expect(deriveDay([...small, member('baby', 'Adult', 'Baby')], []).portions).to.equal(3);
    expect(deriveDay([member('mor', 'Owner'), member('baby', 'Adult', 'Baby')], []).portions).to.equal(1);
    // Two children are one whole portion; with a child guest the halves add up before rounding.
    const two = [member('mor', 'Owner'), member('a', 'Junior', 'Child'), member('b', 'Junior', 'Child')];
    expect(deriveDay(two, []).portions).to.equal(2);
    expect(deriveDay(two, [event('Guests', [guests('Child', 1)])]).portions).to.equal(3);
    // An absent child takes her half away.
    expect(deriveDay(small, [event('PersonAbsent', [attendance('lille', false)])]).portions).to.equal(2);
  });

  it('closes the day for EatingOut and Travel: nothing is cooked or bought', () => {
    for (const type of ['EatingOut', 'Travel'] as const) {
      expect(deriveDay(family, [event(type, [])])).to.include({ portions: 0, cookedAtHome: false });
    }
    expect(deriveDay(family, [event('Celebration', [])])).to.include({ portions: 3, cookedAtHome: true });
  });
});

describe('the candidate gate and serving notes (domain)', () => {
  const ing = (displayName: string, over: Partial<Ingredient> = {}): Ingredient => ({ displayName, foodKey: normalizeFoodKey(displayName), quantity: 1, unit: 'stk', optional: false, baseRecipeId: null, reference: null, ...over });
  const recipe = (id: string, title: string, ingredients: Ingredient[]): Recipe => ({ id, householdId: 'h', title, servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients, sourceUrl: null, imageUrl: null, tags: [], image: null, createdAt: new Date(0), updatedAt: new Date(0) });
  const pesto = recipe('pesto', 'Grønn saus', [ing('Basilikum'), ing('Pinjekjerner'), ing('Parmesan')]);
  const pasta = recipe('pasta', 'Pasta med grønn saus', [ing('Spaghetti'), ing('Grønn saus', { baseRecipeId: 'pesto' })]);
  const salad = recipe('salad', 'Salat', [ing('Salat'), ing('Valnøtter', { optional: true }), ing('Se dressing', { reference: 'Sennepsdressing' })]);
  const recipes = new Map([pesto, pasta, salad].map((r) => [r.id, r]));

  it('finds an avoid through base recipes, optional lines and a reference by its name; none without avoids', () => {
    expect(dishConflict(pasta, recipes, ['nøtter'], '2026-11-23')).to.deep.equal({ date: '2026-11-23', recipeId: 'pasta', recipeTitle: 'Pasta med grønn saus', avoid: 'nøtter', ingredient: 'Pinjekjerner' });
    expect(dishConflict(pasta, recipes, ['laktose'], '2026-11-23')?.ingredient).to.equal('Parmesan');
    expect(dishConflict(pasta, recipes, ['gluten', 'melk'], '2026-11-23')).to.deep.include({ avoid: 'gluten', ingredient: 'Spaghetti' });
    expect(dishConflict(salad, recipes, ['nøtter'], '2026-11-23')?.ingredient).to.equal('Valnøtter');
    expect(dishConflict(salad, recipes, ['sennep'], '2026-11-23')?.ingredient).to.equal('Sennepsdressing');
    expect(dishConflict(salad, recipes, ['skalldyr'], '2026-11-23')).to.equal(null);
    expect(dishConflict(pasta, recipes, [], '2026-11-23')).to.equal(null);
    // A base that loops back (a damaged store) ends.
    const loop = recipe('loop', 'Løkke', [ing('Løkke', { baseRecipeId: 'loop' })]);
    expect(dishConflict(loop, new Map([[loop.id, loop]]), ['nøtter'], '2026-11-23')).to.equal(null);
  });

  it("serving notes: the table's avoids first, then each dietary note by member or guest group, in the household's language", () => {
    const withNotes = [
      event('Guests', [{ ...guests('Adult', 2, ['nøtter']), dietaryNotes: 'Kari spiser ikke svin' }, { ...guests('Child', 1, ['Skalldyr']), dietaryNotes: null }]),
      event('PersonPresent', [{ ...attendance('far', true), dietaryNotes: 'Vegetar' }], 'present'),
    ];
    expect(servingNotesOf(withNotes, [member('far')], 'nb')).to.deep.equal(['Hele bordet unngår i dag: nøtter, Skalldyr.', 'Gjester (2): Kari spiser ikke svin', 'far: Vegetar']);
    expect(servingNotesOf(withNotes, [member('far')], 'en')[0]).to.equal('The whole table avoids today: nøtter, Skalldyr.');
    expect(servingNotesOf([event('Guests', [{ ...guests('Adult', 1), dietaryNotes: 'No pork' }])], [], 'en')).to.deep.equal(['Guest: No pork']);
    expect(servingNotesOf([], [], 'nb')).to.deep.equal([]);
  });
});
