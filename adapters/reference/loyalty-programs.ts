import type { LoyaltyProgram } from '../../core/reference/types.js';
import type { LoyaltyPrograms } from '../../ports/loyalty-programs.js';

/**
 * The programmes of the big grocery groups, by country. Kept small and factual: a programme is listed with the
 * chains where its card or app counts. Countries not listed answer 404 loyalty_programs_unavailable.
 */
const PROGRAMS: readonly LoyaltyProgram[] = [
  { id: 'trumf', name: 'Trumf', chains: ['Meny', 'Kiwi', 'Spar', 'Joker'], country: 'NO' },
  { id: 'coop-medlem', name: 'Coop medlem', chains: ['Coop Extra', 'Coop Mega', 'Coop Prix', 'Coop Obs'], country: 'NO' },
  { id: 'ae', name: 'Æ', chains: ['Rema 1000'], country: 'NO' },
];

export function shippedLoyaltyPrograms(programs: readonly LoyaltyProgram[] = PROGRAMS): LoyaltyPrograms {
  const byCountry = new Map<string, LoyaltyProgram[]>();
  for (const p of programs) byCountry.set(p.country, [...(byCountry.get(p.country) ?? []), p]);
  return {
    inCountry(country) {
      const found = byCountry.get(country.toUpperCase());
      return found ? structuredClone(found) : null;
    },
  };
}
