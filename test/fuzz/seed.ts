import { expect } from 'chai';
import type { Answer, Client } from '../support/client.js';
import { ownedHousehold } from '../support/household.js';
import { recipeBody } from '../support/shopping.js';

const ok = (res: Answer, what: string): Answer => {
  expect(res.status, `${what}: ${res.text}`).to.be.within(200, 299);
  return res;
};

/**
 * One signed-in Owner with a household holding a few of everything, so that path ids in fuzzed requests can be
 * real: a junior member, an invite, a recipe, the plan of a week with a day set, its shopping list with an item,
 * a pantry observation, a unit weight, a merge rejection, a meal event, a push device and a device calendar feed.
 * Answers the Owner's client and real values of path parameters by their names in the OpenAPI document.
 */
export async function seedHousehold(url: string): Promise<{ owner: Client; token: string; bearer: string; realValues: Record<string, string[]> }> {
  const h = await ownedHousehold(url, 'Fuzz');
  const o = h.owner;
  const monday = '2030-01-07';
  const member = ok(await o.post(`${h.base}/members`, { displayName: 'Lille', role: 'Junior' }), 'member').json;
  const invite = ok(await o.post(`${h.base}/invites`, { role: 'Adult' }), 'invite').json;
  const recipe = ok(await o.post(`${h.base}/recipes`, recipeBody('Fiskesuppe', 4, [{ displayName: 'Torsk', quantity: 400, unit: 'g' }])), 'recipe').json;
  const plan = ok(await o.put(`${h.base}/plans/week/${monday}`), 'plan').json;
  ok(await o.put(`${h.base}/plans/${plan.id}/days/${monday}`, { recipeId: recipe.id, portions: 4, note: null }), 'plan day');
  ok(await o.post(`${h.base}/plans/${plan.id}/shopping-list/generate`), 'shopping list');
  ok(await o.post(`${h.base}/plans/${plan.id}/shopping-list/items`, { displayName: 'brød' }), 'shopping item');
  const list = ok(await o.get(`${h.base}/plans/${plan.id}/shopping-list`), 'list').json;
  const obs = ok(await o.post(`${h.base}/inventory/observations`, { foodKey: 'tomat', displayName: 'Tomat', observationType: 'Purchased', quantity: 400, unit: 'g', storageLocation: 'Fridge' }), 'observation').json;
  ok(await o.post(`${h.base}/inventory/observations`, { foodKey: 'agurk', displayName: 'Agurk', observationType: 'Purchased', quantity: 1, unit: 'stk', storageLocation: 'Fridge' }), 'observation 2');
  ok(await o.put(`${h.base}/inventory/unit-weights/tomat/stk`, { grams: 100 }), 'unit weight');
  ok(await o.post(`${h.base}/inventory/merge-rejections`, { keyA: 'tomat', keyB: 'agurk' }), 'merge rejection');
  const event = ok(await o.post(`${h.base}/events`, { date: monday, eventType: 'Custom', servingTime: null, availableCookingMinutes: null, notes: 'Besøk', guests: null, memberAttendance: null }), 'event').json;
  ok(await o.put('/api/v1/me/devices', { token: 'fuzz-device-token-0001', platform: 'android', provider: null }), 'push device');
  ok(await o.put(`${h.base}/calendar-feeds/device`, { deviceKey: 'fuzz-device', name: 'Telefon', events: [] }), 'device feed');
  const feeds = ok(await o.get(`${h.base}/calendar-feeds`), 'feeds').json;
  const items = (list.items ?? list.sections?.flatMap((s: { items: unknown[] }) => s.items) ?? []) as { id: string }[];
  const feedIds = JSON.stringify(feeds).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [];
  const made = ok(await o.post('/api/v1/me/access-tokens', { name: 'Fuzz', householdId: h.id, scope: 'read-write' }), 'access token').json;
  return {
    owner: o,
    token: o.cookie!,
    bearer: made.secret as string,
    realValues: {
      householdId: [h.id],
      memberId: [h.ownerMemberId, member.id],
      code: [invite.code],
      recipeId: [recipe.id],
      planId: [plan.id],
      date: [monday, '2030-01-09'],
      itemId: items.map((i) => i.id).slice(0, 2),
      observationId: [obs.observationId],
      foodKey: ['tomat'],
      unit: ['stk'],
      fromKey: ['tomat'],
      keyA: ['tomat'],
      keyB: ['agurk'],
      eventId: [event.id],
      token: ['fuzz-device-token-0001'],
      deviceKey: ['fuzz-device'],
      feedId: feedIds.filter((id) => id !== h.id).slice(0, 1),
      provider: ['google', 'apple'],
    },
  };
}
