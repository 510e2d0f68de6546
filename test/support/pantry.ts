import type { PantryObservation } from '../../core/pantry/types.js';

/** A purchase of milk and nothing more known about it: the observation the pantry tests start from. */
export const milkBought = (id: string, householdId: string, observedAt: Date, over: Partial<PantryObservation> = {}): PantryObservation => ({
  id,
  householdId,
  foodKey: 'melk',
  displayName: null,
  observationType: 'Purchased',
  quantity: null,
  unit: null,
  storageLocation: null,
  confidence: null,
  bestBefore: null,
  observedAt,
  ...over,
});

/** What a purchase of one piece of `displayName` put in the pantry cupboard sends, no food key or date given. */
export const oneBought = (displayName: string) => ({
  displayName,
  observationType: 'Purchased' as const,
  quantity: 1,
  unit: 'stk',
  storageLocation: 'Pantry' as const,
  confidence: null,
});
