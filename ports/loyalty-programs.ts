import type { LoyaltyProgram } from '../core/reference/types.js';

/** Reference data shipped with the service: the loyalty programmes of the supermarkets of a country. */
export interface LoyaltyPrograms {
  /** The programmes of `country` (ISO 3166-1 alpha-2), or null when the service holds no data for it. */
  inCountry(country: string): readonly LoyaltyProgram[] | null;
}
