import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Account } from '../../core/accounts/types.js';
import type { HouseholdDocument } from '../../core/transfer/document.js';
import { exportHousehold } from '../../core/transfer/export-household.js';
import { importHousehold } from '../../core/transfer/import-household.js';
import { account, domain } from './support.js';

const t = (iso: string) => new Date(iso);
const WEEK = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'];

/** A small document by hand: two members, a recipe on a base, a plan, an event, the pantry and a closed list. */
function document() {
  const [me, kid, dough, pizza, plan, event, seen, list, line] = Array.from({ length: 9 }, () => randomUUID());
  const days = WEEK.map((date) => ({ id: randomUUID(), date, recipeId: date === '2026-11-24' ? pizza! : null, portionsOverride: null, note: null, leftoversOf: null }));
  const recipe = (id: string, title: string, baseRecipeId: string | null) => ({
    id,
    title,
    servings: 4,
    activeMinutes: null,
    totalMinutes: 30,
    steps: ['Lag'],
    ingredients: [{ displayName: baseRecipeId ? 'Deig' : 'Mel', quantity: 1, unit: null, optional: false, baseRecipeId, reference: null }],
    sourceUrl: null,
    imageUrl: null,
    image: null,
    createdAt: t('2026-01-01T00:00:00Z'),
    updatedAt: t('2026-01-02T00:00:00Z'),
  });
  const doc: HouseholdDocument = {
    format: 'dinner-household',
    version: 1,
    exportedAt: t('2026-11-27T00:00:00Z'),
    exportedBy: me!,
    household: { name: 'Berg', timeZoneId: 'Europe/Oslo', language: 'nb', country: 'NO', dinnerTime: '18:00', chains: [], sharingOff: false, priceCatalogueOn: true, dislikes: [], libraryRecipesOn: false, leftoversKeepDays: 3 },
    members: [
      { id: me!, displayName: 'Kari', role: 'Owner', ageGroup: 'Adult', createdAt: t('2026-01-01T00:00:00Z') },
      { id: kid!, displayName: 'Ola', role: 'Junior', ageGroup: 'Child', createdAt: t('2026-01-01T00:00:00Z') },
    ],
    recipes: [recipe(pizza!, 'Pizza', dough!), recipe(dough!, 'Deig', null)],
    plans: [{ id: plan!, weekStart: WEEK[0]!, days, createdAt: t('2026-11-20T00:00:00Z'), updatedAt: t('2026-11-21T00:00:00Z') }],
    mealEvents: [
      {
        id: event!,
        date: '2026-11-24',
        eventType: 'PersonAbsent',
        servingTime: null,
        availableCookingMinutes: null,
        notes: null,
        participants: [{ id: randomUUID(), householdMemberId: kid!, isPresent: false, guestType: null, guestCount: 0, dietaryNotes: null, avoids: [] }],
        createdAt: t('2026-11-20T00:00:00Z'),
        updatedAt: t('2026-11-20T00:00:00Z'),
      },
    ],
    pantry: {
      observations: [{ id: seen!, foodKey: 'Mel', displayName: 'Mel', observationType: 'Purchased', quantity: 1, unit: 'kg', storageLocation: 'Pantry', confidence: null, bestBefore: null, observedAt: t('2026-11-22T00:00:00Z') }],
      merges: [],
      rejections: [],
      unitWeights: [],
    },
    shoppingLists: [
      {
        id: list!,
        planId: plan!,
        generatedAt: t('2026-11-22T00:00:00Z'),
        completedAt: t('2026-11-22T12:00:00Z'),
        skippedReferences: [],
        addedReferences: [],
        trip: { summary: { linesBought: 1, linesLeft: 0, observationsWritten: 1 }, observationIds: [seen!], closingTicks: [{ lineId: line!, status: 'Buy', purchasedQuantity: 0, purchasedUnit: null }] },
        lines: [
          {
            id: line!, foodKey: 'mel', displayName: 'Mel', requiredQuantity: 1, unit: 'kg', extraQuantity: 0, status: 'Purchased', purchasedQuantity: 1, purchasedUnit: null, reasonCode: 'Planned',
            haveQuantity: 0, relatedPlanEntryIds: [days[1]!.id], isManual: false, addedAfterShopping: false, aisle: 'Dry', suggestedPrice: null, suggestedProductName: null,
            suggestedPriceSource: 'None', suggestedPriceIsAggregate: false, tickNotified: false, preferenceFit: 'NotAssessed',
          },
        ],
        madeFor: { '2026-11-24': { recipeId: pizza!, portions: 4 } },
        wouldAdd: [],
        staleSince: null,
      },
    ],
  };
  return { doc, ids: { me: me!, kid: kid!, dough: dough!, pizza: pizza!, plan: plan!, seen: seen!, line: line! }, days };
}

describe('household export and import (domain)', () => {
  it('makes the household with the caller in the exporter\'s place, new ids throughout, and exports it back the same', async () => {
    const { deps } = domain();
    const per = await account(deps, 'per@example.com');
    const { doc, ids } = document();
    const made = await importHousehold(deps, per, doc, new Map());
    if (!made.ok) throw new Error(JSON.stringify(made.error));
    expect(made.value.members.map((m) => [m.displayName, m.role, m.ageGroup, m.accountId])).to.have.deep.members([
      ['Kari', 'Owner', 'Adult', per.id],
      ['Ola', 'Junior', 'Child', null],
    ]);
    const again = await exportHousehold(deps, per, made.value.id);
    if (!again.ok) throw new Error('export failed');
    const text = JSON.stringify(again.value);
    for (const old of Object.values(ids)) expect(text).not.to.include(old);
    // Bases first; the event's member and the list's day, recipe and observation point at the new parts.
    expect(again.value.recipes.map((r) => r.title)).to.deep.equal(['Deig', 'Pizza']);
    const [kid] = made.value.members.filter((m) => m.displayName === 'Ola');
    expect(again.value.mealEvents[0]!.participants[0]!.householdMemberId).to.equal(kid!.id);
    const l = again.value.shoppingLists[0]!;
    expect(l.lines[0]!.relatedPlanEntryIds).to.deep.equal([again.value.plans[0]!.days.find((d) => d.date === '2026-11-24')!.id]);
    expect(l.madeFor['2026-11-24']!.recipeId).to.equal(again.value.recipes.find((r) => r.title === 'Pizza')!.id);
    expect(l.trip!.observationIds).to.deep.equal([again.value.pantry.observations[0]!.id]);
    expect(l.trip!.closingTicks[0]!.lineId).to.equal(l.lines[0]!.id);
    // Keys are normalized as every write does.
    expect(again.value.pantry.observations[0]!.foodKey).to.equal('mel');
  });

  it("carries a closed trip's carried lines (unticked=keep) to the new household, pointing at its own next week's plan", async () => {
    const { deps } = domain();
    const per = await account(deps, 'per@example.com');
    const { doc, ids } = document();
    const next = { ...doc.plans[0]!, id: randomUUID(), weekStart: '2026-11-30', days: doc.plans[0]!.days.map((d, i) => ({ ...d, id: randomUUID(), date: i === 0 ? '2026-11-30' : `2026-12-0${i}`, recipeId: null })) };
    const list = doc.shoppingLists[0]!;
    const carried = { planId: next.id, lines: [{ foodKey: 'Mel', displayName: 'Mel', quantity: 0.5, unit: 'kg' }] };
    const made = await importHousehold(deps, per, { ...doc, plans: [...doc.plans, next], shoppingLists: [{ ...list, trip: { ...list.trip!, carried } }] }, new Map());
    if (!made.ok) throw new Error(JSON.stringify(made.error));
    const again = await exportHousehold(deps, per, made.value.id);
    if (!again.ok) throw new Error('export failed');
    const newNext = again.value.plans.find((p) => p.weekStart === '2026-11-30')!;
    expect(again.value.shoppingLists[0]!.trip!.carried).to.deep.equal({ planId: newNext.id, lines: [{ foodKey: 'mel', displayName: 'Mel', quantity: 0.5, unit: 'kg' }] });
    const text = JSON.stringify(again.value);
    for (const old of [...Object.values(ids), next.id]) expect(text).not.to.include(old);
  });

  it('adds the caller as an Owner of their own when the document names no exporter, and a named Owner arrives as an Adult', async () => {
    const { deps, clock } = domain();
    const per = await account(deps, 'per@example.com');
    const { doc } = document();
    const made = await importHousehold(deps, per, { ...doc, exportedBy: null }, new Map());
    if (!made.ok) throw new Error(JSON.stringify(made.error));
    expect(made.value.members.map((m) => [m.displayName, m.role, m.accountId !== null])).to.have.deep.members([
      ['per', 'Owner', true],
      ['Kari', 'Adult', false],
      ['Ola', 'Junior', false],
    ]);
    expect(made.value.createdAt).to.deep.equal(clock.now());
  });

  it('refuses a document whose parts do not fit together, says where, and writes nothing', async () => {
    const { deps } = domain();
    const per = await account(deps, 'per@example.com');
    const { doc, ids, days } = document();
    const other = randomUUID();
    const list = doc.shoppingLists[0]!;
    const cases: [HouseholdDocument, string][] = [
      [{ ...doc, recipes: doc.recipes.map((r) => (r.id === ids.dough ? { ...r, ingredients: [{ ...r.ingredients[0]!, baseRecipeId: ids.pizza }] } : r)) }, 'recipes.0'],
      [{ ...doc, plans: [{ ...doc.plans[0]!, days: days.slice(0, 6) }] }, 'plans.0.days'],
      [{ ...doc, plans: [{ ...doc.plans[0]!, days: days.map((d, i) => (i === 2 ? { ...d, recipeId: other } : d)) }] }, 'plans.0.days.2.recipeId'],
      [{ ...doc, mealEvents: [{ ...doc.mealEvents[0]!, participants: [{ ...doc.mealEvents[0]!.participants[0]!, householdMemberId: other }] }] }, 'mealEvents.0.participants.0.householdMemberId'],
      [{ ...doc, mealEvents: [{ ...doc.mealEvents[0]!, participants: [{ ...doc.mealEvents[0]!.participants[0]!, guestType: 'Adult' }] }] }, 'mealEvents.0.participants.0'],
      [{ ...doc, pantry: { ...doc.pantry, observations: [{ ...doc.pantry.observations[0]!, foodKey: '!!' }] } }, 'pantry.observations.0.foodKey'],
      [{ ...doc, pantry: { ...doc.pantry, merges: [{ fromKey: 'a', toKey: 'b', fromDisplayName: 'A', toDisplayName: 'B', mergedAt: t('2026-01-01T00:00:00Z') }, { fromKey: 'b', toKey: 'c', fromDisplayName: 'B', toDisplayName: 'C', mergedAt: t('2026-01-01T00:00:00Z') }] } }, 'pantry.merges.0.toKey'],
      [{ ...doc, members: [...doc.members, { ...doc.members[1]! }] }, 'members.2.id'],
      [{ ...doc, exportedBy: other }, 'exportedBy'],
      [{ ...doc, pantry: { ...doc.pantry, rejections: [{ keyA: 'a', keyB: 'b', keyADisplayName: 'A', keyBDisplayName: 'B', decidedAt: t('2026-01-01T00:00:00Z') }, { keyA: 'B', keyB: 'A', keyADisplayName: 'B', keyBDisplayName: 'A', decidedAt: t('2026-01-01T00:00:00Z') }] } }, 'pantry.rejections.1'],
      [{ ...doc, pantry: { ...doc.pantry, unitWeights: [{ foodKey: 'mel', unit: 'Pose', displayName: 'Mel', grams: 1000, updatedAt: t('2026-01-01T00:00:00Z') }, { foodKey: 'Mel', unit: ' pose ', displayName: 'Mel', grams: 900, updatedAt: t('2026-01-01T00:00:00Z') }] } }, 'pantry.unitWeights.1'],
      [{ ...doc, shoppingLists: [{ ...list, planId: other }] }, 'shoppingLists.0.planId'],
      [{ ...doc, shoppingLists: [list, { ...list, id: randomUUID(), lines: [] }] }, 'shoppingLists.1.planId'],
      [{ ...doc, shoppingLists: [{ ...list, lines: [{ ...list.lines[0]!, relatedPlanEntryIds: [other] }] }] }, 'shoppingLists.0.lines.0.relatedPlanEntryIds.0'],
      [{ ...doc, shoppingLists: [{ ...list, trip: { ...list.trip!, observationIds: [other] } }] }, 'shoppingLists.0.trip.observationIds.0'],
      [{ ...doc, shoppingLists: [{ ...list, trip: { ...list.trip!, closingTicks: [{ ...list.trip!.closingTicks[0]!, lineId: other }] } }] }, 'shoppingLists.0.trip.closingTicks.0.lineId'],
      [{ ...doc, shoppingLists: [{ ...list, madeFor: { '2026-11-24': { recipeId: other, portions: 4 } } }] }, 'shoppingLists.0.madeFor.2026-11-24.recipeId'],
      [{ ...doc, shoppingLists: [{ ...list, trip: { ...list.trip!, carried: { planId: other, lines: [] } } }] }, 'shoppingLists.0.trip.carried.planId'],
      [{ ...doc, shoppingLists: [{ ...list, trip: { ...list.trip!, carried: { planId: ids.plan, lines: [{ foodKey: '!!', displayName: 'Mel', quantity: 1, unit: 'kg' }] } } }] }, 'shoppingLists.0.trip.carried.lines.0.foodKey'],
    ];
    for (const [bad, path] of cases) {
      const r = await importHousehold(deps, per, bad, new Map());
      expect(r.ok, path).to.equal(false);
      if (!r.ok) expect(r.error).to.include({ type: 'household-document-invalid', path });
    }
    expect((await deps.households.membershipsOf(per.id)).length).to.equal(0);
  });
});
