import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createHousehold } from '../../core/households/households.js';
import { ensureWeekPlan } from '../../core/plans/plans.js';
import { addShoppingItem, getShoppingList, removeShoppingItem, updateShoppingItem } from '../../core/shopping/lists.js';
import { KEPT_CHANGES, withChange } from '../../core/shopping/line-changes.js';
import { domain, person, value } from './support.js';

/**
 * Two shoppers, Kari offline and Ola online: a change Kari made offline reaches the service after Ola's, and the
 * later action in time wins (core/shopping/line-changes.ts).
 */
describe('shopping list: the later action wins (domain)', () => {
  async function shoppers() {
    const { deps, clock } = domain();
    const kari = person('Kari');
    const ola = person('Ola');
    await deps.accounts.create({ ...kari });
    await deps.accounts.create({ ...ola });
    const hid = value(await createHousehold(deps, kari, { name: 'Hansen' })).id;
    await deps.households.addMember(hid, { id: randomUUID(), displayName: 'Ola', role: 'Adult', accountId: ola.id, createdAt: clock.now() });
    const planId = value(await ensureWeekPlan(deps, kari, hid, '2026-05-04')).id;
    const napkins = value(await addShoppingItem(deps, kari, hid, planId, { displayName: 'servietter' }));
    const minutesAgo = (m: number) => new Date(clock.now().getTime() - m * 60_000);
    const lineOf = async () => value(await getShoppingList(deps, kari, hid, planId)).list.lines.find((l) => l.id === napkins.id);
    return { deps, clock, kari, ola, hid, planId, napkins, minutesAgo, lineOf };
  }

  it('a tick made offline before the other removed the line loses, and says who removed it', async () => {
    const w = await shoppers();
    value(await removeShoppingItem(w.deps, w.ola, w.hid, w.napkins.id));
    const late = await updateShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { status: 'Purchased', actedAt: w.minutesAgo(5) });
    expect(late).to.deep.equal({ ok: false, error: { type: 'shopping-line-changed', change: 'Removed', changedBy: 'Ola', changedAt: w.clock.now(), displayName: 'servietter' } });
    expect(await w.lineOf()).to.equal(undefined);
  });

  it('a tick made offline after the other removed the line puts it back, ticked', async () => {
    const w = await shoppers();
    w.clock.advance(-10 * 60_000);
    value(await removeShoppingItem(w.deps, w.ola, w.hid, w.napkins.id));
    w.clock.advance(10 * 60_000);
    const back = value(await updateShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { status: 'Purchased', actedAt: w.minutesAgo(5) }));
    expect(back).to.include({ id: w.napkins.id, status: 'Purchased', displayName: 'servietter' });
    expect(await w.lineOf()).to.include({ status: 'Purchased', purchasedQuantity: 1 });
    // Without actedAt (a change sent at once) a removed line is simply not there.
    value(await removeShoppingItem(w.deps, w.ola, w.hid, w.napkins.id));
    expect(await updateShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { status: 'Buy' })).to.deep.equal({ ok: false, error: { type: 'shopping-item-not-found' } });
  });

  it('a removal made offline before the other ticked the line loses, and the line stays ticked', async () => {
    const w = await shoppers();
    value(await updateShoppingItem(w.deps, w.ola, w.hid, w.napkins.id, { status: 'Purchased' }));
    const late = await removeShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { actedAt: w.minutesAgo(3) });
    expect(late.ok).to.equal(false);
    expect(!late.ok && late.error).to.include({ type: 'shopping-line-changed', change: 'Purchased', changedBy: 'Ola', displayName: 'servietter' });
    expect(await w.lineOf()).to.include({ status: 'Purchased' });
    // Made after Ola's tick, the removal wins.
    w.clock.advance(10 * 60_000);
    value(await removeShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { actedAt: w.minutesAgo(1) }));
    expect(await w.lineOf()).to.equal(undefined);
  });

  it('an untick or an amount added after an offline tick outranks it; the same tick by both is no conflict', async () => {
    const w = await shoppers();
    value(await updateShoppingItem(w.deps, w.ola, w.hid, w.napkins.id, { status: 'Purchased' }));
    value(await updateShoppingItem(w.deps, w.ola, w.hid, w.napkins.id, { status: 'Buy' }));
    const ticked = await updateShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { status: 'Purchased', actedAt: w.minutesAgo(2) });
    expect(!ticked.ok && ticked.error).to.include({ change: 'Buy', changedBy: 'Ola' });
    // Kari asks for what the line already is: answered as it is, nothing written.
    const before = value(await getShoppingList(w.deps, w.kari, w.hid, w.planId)).list.version;
    expect(value(await updateShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { status: 'Buy', actedAt: w.minutesAgo(2) }))).to.include({ status: 'Buy' });
    expect(value(await getShoppingList(w.deps, w.kari, w.hid, w.planId)).list.version).to.equal(before);
    // Ola adds 2 more by hand: an amount changed after Kari's offline tick.
    value(await addShoppingItem(w.deps, w.ola, w.hid, w.planId, { displayName: '2 servietter' }));
    const tick = await updateShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { status: 'Purchased', actedAt: w.minutesAgo(1) });
    expect(!tick.ok && tick.error).to.include({ change: 'Amount', changedBy: 'Ola' });
    expect(await w.lineOf()).to.include({ status: 'Buy', requiredQuantity: 3 });
  });

  it("the caller's own later change never stands in the way, and a time after now counts as now", async () => {
    const w = await shoppers();
    value(await updateShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { status: 'Purchased' }));
    expect(value(await updateShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { status: 'Buy', actedAt: w.minutesAgo(4) }))).to.include({ status: 'Buy' });
    // Kari's phone runs an hour fast: her change counts as made now, so Ola's next change still outranks it.
    value(await updateShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { status: 'Purchased', actedAt: new Date(w.clock.now().getTime() + 3_600_000) }));
    w.clock.advance(1000);
    value(await updateShoppingItem(w.deps, w.ola, w.hid, w.napkins.id, { status: 'Buy' }));
    const late = await updateShoppingItem(w.deps, w.kari, w.hid, w.napkins.id, { status: 'Purchased', actedAt: w.minutesAgo(0.01) });
    expect(!late.ok && late.error).to.include({ change: 'Buy' });
  });

  it('keeps one change a line and at most KEPT_CHANGES', () => {
    let list = {};
    const at = new Date(0);
    for (let i = 0; i < KEPT_CHANGES + 5; i += 1) list = withChange(list, { lineId: `l${i}`, displayName: 'x', change: 'Buy', at, by: 'a' });
    list = withChange(list, { lineId: `l${KEPT_CHANGES + 4}`, displayName: 'x', change: 'Purchased', at, by: 'b' });
    const kept = (list as { personChanges: { lineId: string; change: string }[] }).personChanges;
    expect(kept).to.have.length(KEPT_CHANGES);
    expect(kept[0]!.lineId).to.equal('l5');
    expect(kept.at(-1)).to.include({ lineId: `l${KEPT_CHANGES + 4}`, change: 'Purchased' });
    expect(kept.filter((c) => c.lineId === `l${KEPT_CHANGES + 4}`)).to.have.length(1);
  });
});
