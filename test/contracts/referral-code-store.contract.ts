import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { NewReferralCode } from '../../ports/referral-code-store.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, createdAccount, newAccount, ownedHousehold } from './fixtures.js';

let counter = 0;
/** Distinct codes of the referral shape, unique per run. */
const freshCode = () => `R${(++counter).toString(32).toUpperCase().padStart(4, '0')}${randomUUID().replace(/-/g, '').slice(0, 7).toUpperCase()}`;

export function referralCodeStoreContract(backend: Backend): void {
  storeSuite(backend, 'ReferralCodeStore', (s) => {
    async function household() {
      const { id } = await ownedHousehold(s, { plan: 'Plus', at: at('2026-02-01T12:00:00.500Z') });
      return id;
    }
    const batch = (slots: number[], createdAt = at('2026-05-04T09:00:00.123Z')): NewReferralCode[] => slots.map((slot) => ({ code: freshCode(), slot, createdAt }));

    it('round-trips codes with their slots and dates, oldest first, scoped to the household', async () => {
      const h = await household();
      const other = await household();
      const later = batch([1], at('2026-05-05T10:00:00.456Z'));
      const first = batch([0], at('2026-05-04T09:00:00.123Z'));
      expect(await s.referralCodes.addToFreeSlots(h, later)).to.have.length(1);
      const added = await s.referralCodes.addToFreeSlots(h, first);
      expect(added).to.deep.equal([{ code: first[0]!.code, householdId: h, slot: 0, usedAt: null, usedBy: null, createdAt: at('2026-05-04T09:00:00.123Z') }]);
      await s.referralCodes.addToFreeSlots(other, batch([0]));
      expect(await s.referralCodes.listOf(h)).to.deep.equal([
        { code: first[0]!.code, householdId: h, slot: 0, usedAt: null, usedBy: null, createdAt: at('2026-05-04T09:00:00.123Z') },
        { code: later[0]!.code, householdId: h, slot: 1, usedAt: null, usedBy: null, createdAt: at('2026-05-05T10:00:00.456Z') },
      ]);
      expect(await s.referralCodes.listOf(randomUUID())).to.deep.equal([]);
    });

    it('drops a code whose slot is taken and keeps the others of the batch', async () => {
      const h = await household();
      const [kept] = await s.referralCodes.addToFreeSlots(h, batch([0]));
      const second = batch([0, 1, 2]);
      const added = await s.referralCodes.addToFreeSlots(h, second);
      expect(added.map((c) => c.slot)).to.deep.equal([1, 2]);
      const listed = await s.referralCodes.listOf(h);
      expect(listed.map((c) => c.code).sort()).to.deep.equal([kept!.code, second[1]!.code, second[2]!.code].sort());
    });

    it('never holds more unused codes than slots when several fill them at once, each code unique', async () => {
      const h = await household();
      const results = await Promise.all(Array.from({ length: 6 }, () => s.referralCodes.addToFreeSlots(h, batch([0, 1, 2]))));
      expect(results.flat()).to.have.length(3);
      const listed = await s.referralCodes.listOf(h);
      expect(listed).to.have.length(3);
      expect(listed.map((c) => c.slot).sort()).to.deep.equal([0, 1, 2]);
      expect(new Set(listed.map((c) => c.code)).size).to.equal(3);
    });

    it('refuses a code another household holds already (codes are unique)', async () => {
      const h = await household();
      const other = await household();
      const [mine] = batch([0]);
      await s.referralCodes.addToFreeSlots(h, [mine!]);
      expect(await s.referralCodes.addToFreeSlots(other, [{ ...mine!, slot: 0 }])).to.deep.equal([]);
      expect(await s.referralCodes.listOf(other)).to.deep.equal([]);
    });

    it("redeems an unused code of any household once for the registering account, and frees its slot", async () => {
      const h = await household();
      const newcomer = await createdAccount(s);
      const [code] = await s.referralCodes.addToFreeSlots(h, batch([0]));
      const spent = await s.referralCodes.redeem(code!.code, newcomer.id, at('2026-05-06T07:30:00.789Z'));
      expect(spent).to.deep.equal({ ...code, slot: null, usedAt: at('2026-05-06T07:30:00.789Z'), usedBy: newcomer.id });
      expect(await s.referralCodes.redeem(code!.code, newcomer.id, at('2026-05-07T00:00:00.000Z'))).to.equal(null);
      expect(await s.referralCodes.redeem('UNKNOWN00000', newcomer.id, at('2026-05-07T00:00:00.000Z'))).to.equal(null);
      expect((await s.referralCodes.listOf(h))[0]).to.deep.equal(spent);
      const refill = await s.referralCodes.addToFreeSlots(h, batch([0]));
      expect(refill).to.have.length(1);
      const listed = await s.referralCodes.listOf(h);
      expect(listed.map((c) => [c.slot, c.usedAt !== null])).to.have.deep.members([
        [null, true],
        [0, false],
      ]);
    });

    it('lets exactly one of several accounts redeeming one code at once have it', async () => {
      const h = await household();
      const [code] = await s.referralCodes.addToFreeSlots(h, batch([0]));
      const newcomers = Array.from({ length: 6 }, () => newAccount());
      for (const a of newcomers) await s.accounts.create(a);
      const answers = await Promise.all(newcomers.map((a) => s.referralCodes.redeem(code!.code, a.id, at('2026-05-06T07:30:00.000Z'))));
      const winners = answers.filter((a) => a !== null);
      expect(winners).to.have.length(1);
      expect((await s.referralCodes.listOf(h))[0]!.usedBy).to.equal(winners[0]!.usedBy);
    });

    it('keeps a code spent when the account that redeemed it is deleted', async () => {
      const h = await household();
      const newcomer = await createdAccount(s);
      const [code] = await s.referralCodes.addToFreeSlots(h, batch([0]));
      await s.referralCodes.redeem(code!.code, newcomer.id, at('2026-05-06T07:30:00.000Z'));
      await s.accounts.delete(newcomer.id);
      expect(await s.referralCodes.listOf(h)).to.deep.equal([{ ...code, slot: null, usedAt: at('2026-05-06T07:30:00.000Z'), usedBy: null }]);
      expect(await s.referralCodes.redeem(code!.code, (await ownedHousehold(s)).owner.id, at('2026-05-07T00:00:00.000Z'))).to.equal(null);
    });

    it('deletes the codes with their household', async () => {
      const h = await household();
      const [code] = await s.referralCodes.addToFreeSlots(h, batch([0]));
      await s.households.delete(h);
      expect(await s.referralCodes.listOf(h)).to.deep.equal([]);
      expect(await s.referralCodes.redeem(code!.code, (await ownedHousehold(s)).owner.id, at('2026-05-06T00:00:00.000Z'))).to.equal(null);
    });
  });
}
