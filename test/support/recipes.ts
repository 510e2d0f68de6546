/**
 * The recipe fixtures the core, HTTP and store tests share: a tomato soup for four and its four tomatoes, as a recipe
 * and an ingredient line are written; and the onion soup for two a replacement writes, and how it reads back.
 */
export const tomatoSoup = { title: 'Tomatsuppe', servings: 4, activeMinutes: 15, totalMinutes: 30 };
export const tomatoes = { displayName: 'Tomater', quantity: 4, unit: null, optional: false, baseRecipeId: null, reference: null };

export const onionSoup = () => ({ title: 'Løksuppe', servings: 2, activeMinutes: null, totalMinutes: null, steps: [] as string[] });
export const onions = { displayName: 'Løker', quantity: 3, unit: 'stk' };
const onionsRead = () => ({ ...tomatoes, ...onions, foodKey: 'løk' });
/** The onion soup as it reads back: its line with its food key, no source, no picture. */
export const onionSoupRead = () => ({ ...onionSoup(), ingredients: [onionsRead()], sourceUrl: null, imageUrl: null, image: null });
