import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { randomReadableCodes } from '../../adapters/crypto/readable-codes.js';
import { emptyTables, memoryHouseholdStore, type MemoryTables } from '../../adapters/memory/stores.js';
import { memoryReferralCodeStore } from '../../adapters/memory/referral-code-store.js';
import { shippedLoyaltyPrograms } from '../../adapters/reference/loyalty-programs.js';
import type { Account } from '../../core/accounts/types.js';
import type { Plan } from '../../core/households/types.js';
import { loyaltyProgramsOf } from '../../core/reference/loyalty-programs.js';
import { referralCodesOf, type ReferralDeps } from '../../core/reference/referral-codes.js';
import { REFERRAL_CODE_LENGTH } from '../../core/reference/types.js';
import type { ReadableCodes } from '../../ports/readable-codes.js';
import { person, storedHousehold } from './support.js';

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]+$/;

/** Codes C0000000001, C0000000002, ... so that a test can tell which were minted. */
function countingCodes(): ReadableCodes & { minted: number } {
  const g = {
    minted: 0,
    newCode(length: number) {
      g.minted++;
      return `C${String(g.minted).padStart(length - 1, '0')}`;
    },
  };
  return g;
}

function world(count = 3, codes: ReadableCodes = countingCodes()) {
  const t: MemoryTables = emptyTables();
  const clock = fixedClock(new Date('2026-05-04T09:00:00.000Z'));
  const deps: ReferralDeps = {
    households: memoryHouseholdStore(t),
    referralCodes: memoryReferralCodeStore(t),
    codes,
    clock,
    referralCodesPerHousehold: count,
  };
  async function household(owner: Account, plan: Plan, country = 'NO') {
    return storedHousehold(deps.households, owner, clock.now(), { plan, country });
  }
  const setPlan = (householdId: string, plan: Plan) => t.households.set(householdId, { ...t.households.get(householdId)!, plan });
  return { deps, clock, household, setPlan };
}

describe('referral codes (domain)', () => {
  it('gives a household on the free plan no codes and mints none', async () => {
    const codes = countingCodes();
    const { deps, household } = world(3, codes);
    const kari = person('kari');
    const h = await household(kari, 'Free');
    expect(await referralCodesOf(deps, kari, h)).to.deep.equal({ ok: true, value: [] });
    expect(codes.minted).to.equal(0);
  });

  it('mints the configured count for a paying household on first read and answers the same codes afterwards', async () => {
    const codes = countingCodes();
    const { deps, clock, household } = world(3, codes);
    const kari = person('kari');
    const h = await household(kari, 'Plus');
    const first = await referralCodesOf(deps, kari, h);
    if (!first.ok) throw new Error('expected codes');
    expect(first.value.map((c) => [c.code, c.slot, c.usedAt])).to.deep.equal([
      ['C00000000001', 0, null],
      ['C00000000002', 1, null],
      ['C00000000003', 2, null],
    ]);
    expect(first.value.every((c) => c.createdAt.getTime() === clock.now().getTime() && c.householdId === h)).to.equal(true);
    clock.advance(60_000);
    expect(await referralCodesOf(deps, kari, h)).to.deep.equal(first);
    expect(codes.minted).to.equal(3);
  });

  it('tops up to the count after a code is spent, listing the spent one too', async () => {
    const { deps, clock, household } = world(2);
    const kari = person('kari');
    const h = await household(kari, 'Plus');
    const first = await referralCodesOf(deps, kari, h);
    if (!first.ok) throw new Error('expected codes');
    clock.advance(1000);
    await deps.referralCodes.redeem(first.value[0]!.code, kari.id, clock.now());
    const after = await referralCodesOf(deps, kari, h);
    if (!after.ok) throw new Error('expected codes');
    expect(after.value).to.have.length(3);
    expect(after.value.filter((c) => c.usedAt === null)).to.have.length(2);
    expect(after.value.find((c) => c.code === first.value[0]!.code)?.usedAt).to.deep.equal(clock.now());
  });

  it('never holds more than the count of unused codes when reads come at once', async () => {
    const { deps, household } = world(3, randomReadableCodes);
    const kari = person('kari');
    const h = await household(kari, 'Plus');
    const answers = await Promise.all(Array.from({ length: 8 }, () => referralCodesOf(deps, kari, h)));
    const listed = await deps.referralCodes.listOf(h);
    expect(listed).to.have.length(3);
    for (const a of answers) {
      if (!a.ok) throw new Error('expected codes');
      expect(a.value.map((c) => c.code)).to.deep.equal(listed.map((c) => c.code));
    }
    for (const c of listed) {
      expect(c.code).to.have.length(REFERRAL_CODE_LENGTH);
      expect(c.code).to.match(CROCKFORD);
    }
  });

  it('answers household-not-found to someone who is not a member, minting nothing', async () => {
    const codes = countingCodes();
    const { deps, household } = world(3, codes);
    const kari = person('kari');
    const h = await household(kari, 'Plus');
    expect(await referralCodesOf(deps, person('stranger'), h)).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
    expect(await referralCodesOf(deps, kari, randomUUID())).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
    expect(codes.minted).to.equal(0);
  });
});

describe('loyalty programmes (domain)', () => {
  const loyalty = (w: ReturnType<typeof world>) => ({ households: w.deps.households, loyaltyPrograms: shippedLoyaltyPrograms() });

  it("answers the programmes of the household's country", async () => {
    const w = world();
    const kari = person('kari');
    const h = await w.household(kari, 'Free', 'NO');
    const r = await loyaltyProgramsOf(loyalty(w), kari, h);
    if (!r.ok) throw new Error('expected programmes');
    expect(r.value.map((p) => p.name)).to.deep.equal(['Trumf', 'Coop medlem', 'Æ']);
    expect(r.value.find((p) => p.id === 'trumf')?.chains).to.deep.equal(['Meny', 'Kiwi', 'Spar', 'Joker']);
    expect(r.value.every((p) => p.country === 'NO')).to.equal(true);
  });

  it('answers loyalty-programs-unavailable for a country without data, and household-not-found to a stranger', async () => {
    const w = world();
    const kari = person('kari');
    const h = await w.household(kari, 'Free', 'SE');
    expect(await loyaltyProgramsOf(loyalty(w), kari, h)).to.deep.equal({ ok: false, error: { type: 'loyalty-programs-unavailable', country: 'SE' } });
    expect(await loyaltyProgramsOf(loyalty(w), person('stranger'), h)).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
  });
});
