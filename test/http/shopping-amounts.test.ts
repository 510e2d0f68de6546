/** What to buy for each line of a week's list (the `buy` of a shopping-list item in the OpenAPI document). */
import { expect } from 'chai';
import { httpSuite } from '../support/http-suite.js';
import { addDish, recipeBody, type ShoppingItem } from '../support/shopping.js';

const MONDAY = '2026-05-04';

httpSuite('shopping list: amounts you can buy', { now: new Date('2026-05-04T09:00:00.000Z') }, (server) => {
  it('rounds pieces and packages up to whole ones, writes mass and volume in steps, and gives no number without an amount', async () => {
    const h = await server.plannedWeek(MONDAY);
    const dish = await addDish(
      h,
      recipeBody('Taco', 4, [
        { displayName: 'Agurk', quantity: 1, unit: 'stk' },
        { displayName: 'Rømme', quantity: 1, unit: 'boks' },
        { displayName: 'Kjøttdeig', quantity: 400, unit: 'g' },
        { displayName: 'Melk', quantity: 6, unit: 'dl' },
        { displayName: 'Tomatpuré', quantity: 1.5, unit: 'ss' },
        { displayName: 'Salt og pepper', quantity: null, unit: null },
      ]),
    );
    const day = await h.owner.put(`${h.base}/plans/${h.plan.id}/days/${MONDAY}`, { recipeId: dish.id, portions: 7, note: null });
    expect(day.status, day.text).to.equal(200);
    const res = await h.owner.get(h.list);
    expect(res.status, res.text).to.equal(200);
    const buyOf = (name: string) => {
      const item = (res.json.items as (ShoppingItem & { buy: unknown })[]).find((i) => i.displayName === name);
      return item && { need: [item.requiredQuantity, item.unit], buy: item.buy };
    };
    expect(buyOf('Agurk')).to.deep.equal({ need: [1.75, 'pcs'], buy: { quantity: 2, unit: 'pcs', packageSize: null } });
    expect(buyOf('Rømme')).to.deep.equal({ need: [1.75, 'bx'], buy: { quantity: 2, unit: 'bx', packageSize: null } });
    // The food table's chains sell kjøttdeig in packages of 400 g.
    expect(buyOf('Kjøttdeig')).to.deep.equal({ need: [700, 'g'], buy: { quantity: 2, unit: 'pk', packageSize: { quantity: 400, unit: 'g' } } });
    expect(buyOf('Melk')).to.deep.equal({ need: [10.5, 'dl'], buy: { quantity: 1.1, unit: 'l', packageSize: null } });
    expect(buyOf('Tomatpuré')).to.deep.equal({ need: [2.625, 'tbsp'], buy: { quantity: 3, unit: 'tbsp', packageSize: null } });
    expect(buyOf('Salt og pepper')).to.deep.equal({ need: [0, 'pcs'], buy: { quantity: null, unit: null, packageSize: null } });
  });

  it('answers a hand-added line with what to buy too: 1600 g is 1.6 kg', async () => {
    const h = await server.plannedWeek(MONDAY);
    const added = await h.owner.post(`${h.list}/items`, { displayName: '1600 g hvetemel' });
    expect(added.status, added.text).to.equal(200);
    expect(added.json).to.deep.include({ requiredQuantity: 1600, unit: 'g', buy: { quantity: 1.6, unit: 'kg', packageSize: null } });
  });

  /** A week needing 1.75 pcs of cucumber and 10.5 dl of milk: its list, and the cucumber's line. */
  const saladWeek = async () => {
    const h = await server.plannedWeek(MONDAY);
    const dish = await addDish(h, recipeBody('Salat', 4, [{ displayName: 'Agurk', quantity: 1, unit: 'stk' }, { displayName: 'Melk', quantity: 6, unit: 'dl' }]));
    await h.owner.put(`${h.base}/plans/${h.plan.id}/days/${MONDAY}`, { recipeId: dish.id, portions: 7, note: null });
    const items = (await h.owner.get(h.list)).json.items as ShoppingItem[];
    const cucumber = items.find((i) => i.displayName === 'Agurk')!;
    return { h, items, cucumber };
  };

  it('a whole tick records what a shop sells for the rest (2 pcs for 1.75 pcs)', async () => {
    const { h, cucumber } = await saladWeek();
    const ticked = await h.owner.patch(`${h.base}/shopping-items/${cucumber.id}`, { status: 'Purchased' });
    expect(ticked.json).to.deep.include({ status: 'Purchased', requiredQuantity: 1.75, purchasedQuantity: 2, remainingQuantity: 0, remaining: { quantity: null, unit: null, packageSize: null } });
    // A retry records the same.
    expect((await h.owner.patch(`${h.base}/shopping-items/${cucumber.id}`, { status: 'Purchased' })).json).to.include({ purchasedQuantity: 2 });
  });

  it('the closing\'s "all bought" records what a shop sells too, and that is what the pantry gets', async () => {
    const { h, items, cucumber } = await saladWeek();
    await h.owner.patch(`${h.base}/shopping-items/${cucumber.id}`, { status: 'Purchased' });
    // The closing's "all bought" records the rounded amount: 10.5 dl of milk is 1.1 l, 11 dl.
    const closed = await h.owner.post(`${h.list}/complete?markAllBought=true`);
    expect(closed.status, closed.text).to.equal(200);
    const bought = Object.fromEntries((closed.json.items as ShoppingItem[]).map((i) => [i.displayName, [i.purchasedQuantity, i.unit]]));
    expect(bought).to.deep.equal({ Agurk: [2, 'pcs'], Melk: [11, 'dl'] });
    const pantry = await server.runtime.deps.pantry.ofHousehold(h.id);
    expect(pantry.map((o) => [o.foodKey, o.quantity, o.unit]).sort()).to.deep.equal([
      [cucumber.foodKey, 2, 'pcs'],
      [items.find((i) => i.displayName === 'Melk')!.foodKey, 11, 'dl'],
    ].sort());
  });


  it('a food sold in packages of a known size is bought in whole packages, and the rest of the last one goes to the pantry', async () => {
    const h = await server.plannedWeek(MONDAY);
    const dish = await addDish(h, recipeBody('Lasagne', 4, [{ displayName: 'Hakkede tomater', quantity: 500, unit: 'g' }]));
    await h.owner.put(`${h.base}/plans/${h.plan.id}/days/${MONDAY}`, { recipeId: dish.id, portions: 4, note: null });
    const tomatoes = ((await h.owner.get(h.list)).json.items as ShoppingItem[])[0]!;
    // The chain list price is for a box of 400 g: two of them.
    expect(tomatoes).to.deep.include({ requiredQuantity: 500, unit: 'g', buy: { quantity: 2, unit: 'pk', packageSize: { quantity: 400, unit: 'g' } } });
    const ticked = await h.owner.patch(`${h.base}/shopping-items/${tomatoes.id}`, { status: 'Purchased' });
    expect(ticked.json).to.include({ status: 'Purchased', purchasedQuantity: 800, remainingQuantity: 0 });
    expect((await h.owner.post(`${h.list}/complete`)).status).to.equal(200);
    const pantry = await server.runtime.deps.pantry.ofHousehold(h.id);
    expect(pantry.map((o) => [o.foodKey, o.quantity, o.unit])).to.deep.equal([[tomatoes.foodKey, 800, 'g']]);
  });

  it('a package size the household set once (a unit weight of a package unit) wins, on planned, hand-added and recipe-added lines', async () => {
    const h = await server.plannedWeek(MONDAY);
    const dish = await addDish(h, recipeBody('Lasagne', 4, [{ displayName: 'Hakkede tomater', quantity: 500, unit: 'g' }]));
    await h.owner.put(`${h.base}/plans/${h.plan.id}/days/${MONDAY}`, { recipeId: dish.id, portions: 4, note: null });
    const tomatoes = ((await h.owner.get(h.list)).json.items as ShoppingItem[])[0]!;
    // "hakkede tomater: boks 390 g", set once by the household.
    const set = await h.owner.put(`${h.base}/inventory/unit-weights/${encodeURIComponent(tomatoes.foodKey)}/boks`, { grams: 390 });
    expect(set.status, set.text).to.equal(200);
    const read = (await h.owner.get(h.list)).json.items as ShoppingItem[];
    expect(read[0]).to.deep.include({ id: tomatoes.id, buy: { quantity: 2, unit: 'bx', packageSize: { quantity: 390, unit: 'g' } } });
    const added = await h.owner.post(`${h.list}/items`, { displayName: '1 kg kikerter' });
    const chickpeas = await h.owner.put(`${h.base}/inventory/unit-weights/${encodeURIComponent(added.json.foodKey)}/boks`, { grams: 410 });
    expect(chickpeas.status, chickpeas.text).to.equal(200);
    const hand = ((await h.owner.get(h.list)).json.items as ShoppingItem[]).find((i) => i.id === added.json.id)!;
    expect(hand).to.deep.include({ reasonCode: 'Manual', buy: { quantity: 3, unit: 'bx', packageSize: { quantity: 410, unit: 'g' } } });
    expect((await h.owner.patch(`${h.base}/shopping-items/${hand.id}`, { status: 'Purchased' })).json).to.include({ purchasedQuantity: 1.23, unit: 'kg' });
    // A recipe added by hand gets the household's size at once.
    const chili = await addDish(h, recipeBody('Chili', 4, [{ displayName: 'Bønner', quantity: 600, unit: 'g' }]));
    expect((await h.owner.put(`${h.base}/inventory/unit-weights/${encodeURIComponent(chili.ingredients[0]!.foodKey)}/boks`, { grams: 380 })).status).to.equal(200);
    const withChili = await h.owner.post(`${h.list}/recipe`, { recipeId: chili.id });
    expect(withChili.status, withChili.text).to.equal(200);
    expect((withChili.json.items as ShoppingItem[]).find((i) => i.displayName === 'Bønner')).to.deep.include({ reasonCode: 'AddedRecipe', buy: { quantity: 2, unit: 'bx', packageSize: { quantity: 380, unit: 'g' } } });
    // Taken away again, the chain's package of 400 g counts.
    expect((await h.owner.delete(`${h.base}/inventory/unit-weights/${encodeURIComponent(tomatoes.foodKey)}/boks`)).status).to.equal(204);
    const back = ((await h.owner.get(h.list)).json.items as ShoppingItem[]).find((i) => i.id === tomatoes.id)!;
    expect(back).to.deep.include({ buy: { quantity: 2, unit: 'pk', packageSize: { quantity: 400, unit: 'g' } } });
  });

  it('a ticked line that a hand-added amount joins keeps the basket and asks only for the rest, counted to buy', async () => {
    const h = await server.plannedWeek(MONDAY);
    const dish = await addDish(h, recipeBody('Grøt', 4, [{ displayName: 'Melk', quantity: 6, unit: 'dl' }]));
    await h.owner.put(`${h.base}/plans/${h.plan.id}/days/${MONDAY}`, { recipeId: dish.id, portions: 4, note: null });
    const milk = ((await h.owner.get(h.list)).json.items as ShoppingItem[])[0]!;
    expect((await h.owner.patch(`${h.base}/shopping-items/${milk.id}`, { status: 'Purchased' })).json).to.include({ purchasedQuantity: 6 });
    expect((await h.owner.get(h.list)).json.toBuyCount).to.equal(0);
    const added = await h.owner.post(`${h.list}/items`, { displayName: '2 l melk' });
    expect(added.status, added.text).to.equal(200);
    // One line: 6 dl in the basket, 2 l to buy, the 2 l added by hand said as such.
    expect(added.json).to.deep.include({ id: milk.id, status: 'Buy', requiredQuantity: 26, unit: 'dl', purchasedQuantity: 6, remainingQuantity: 20, extraQuantity: 20, reasonCode: 'Planned' });
    expect(added.json.remaining).to.deep.equal({ quantity: 2, unit: 'l', packageSize: null });
    const list = (await h.owner.get(h.list)).json;
    expect(list.items).to.have.length(1);
    expect(list.toBuyCount).to.equal(1);
    // Bought whole now: the basket holds all 26 dl, the 6 dl counted once.
    expect((await h.owner.patch(`${h.base}/shopping-items/${milk.id}`, { status: 'Purchased' })).json).to.include({ status: 'Purchased', purchasedQuantity: 26, remainingQuantity: 0 });
  });
});
