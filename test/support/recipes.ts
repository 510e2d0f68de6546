/**
 * The recipe fixtures the core, HTTP and store tests share: a tomato soup for four and its four tomatoes, as a recipe
 * and an ingredient line are written; and the onion soup for two a replacement writes, with the line it reads back
 * as (its food key made from the name).
 */
export const tomatoSoup = { title: 'Tomatsuppe', servings: 4, activeMinutes: 15, totalMinutes: 30 };
export const tomatoes = { displayName: 'Tomater', quantity: 4, unit: null, optional: false, baseRecipeId: null, reference: null };

export const onionSoup = () => ({ title: 'Løksuppe', servings: 2, activeMinutes: null, totalMinutes: null, steps: [] as string[] });
export const onions = { displayName: 'Løker', quantity: 3, unit: 'stk' };
export const onionsRead = () => ({ ...tomatoes, ...onions, foodKey: 'løk' });
