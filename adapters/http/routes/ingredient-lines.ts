import * as v from 'valibot';
import { parseIngredientLine } from '../../../core/recipes/ingredient-line.js';
import { mount, resource } from '../route.js';

const LINES_MAX = 200;
const LINE_MAX = 500;

const IngredientLinesRequest = v.object({
  lines: v.pipe(v.array(v.pipe(v.string(), v.maxLength(LINE_MAX, `at most ${LINE_MAX} characters`))), v.maxLength(LINES_MAX, `at most ${LINES_MAX} lines`)),
});

const ReadIngredientLine = v.object({
  original: v.string(),
  displayName: v.string(),
  quantity: v.nullable(v.number()),
  unit: v.nullable(v.string()),
  note: v.nullable(v.string()),
  optional: v.boolean(),
  confidence: v.picklist(['high', 'medium', 'low']),
  flags: v.array(v.string()),
});
const IngredientLinesResponse = v.object({ lines: v.array(ReadIngredientLine), dropped: v.number() });

const DESCRIPTION =
  'Reads typed or pasted ingredient lines ("400 g kjøttdeig", "1/2 ts salt", "½ rødløk", "1 1/2 cups flour") into ' +
  'quantity, unit (one of the canonical units g, kg, ml, cl, dl, l, tsp, tbsp, pcs, pk, bx, bunt, fl; cups, ounces and ' +
  'pounds converted) and food, with the same reader as POST /api/v1/households/{householdId}/recipes/import, so a ' +
  'line reads the same however it reaches a recipe. Nothing is saved. A line with no letter or digit and a heading ' +
  '("Til sausen:") are not ingredients: they are left out of lines and counted in dropped; every other line is ' +
  'answered in the order sent, with its original text, confidence (high, medium, low), note and flags. A line the ' +
  `reader cannot read is kept whole as displayName with no quantity. At most ${LINES_MAX} lines of ${LINE_MAX} characters.`;

const readIngredientLinesRoute = resource<unknown>('Recipes').handledRoute({
  method: 'POST',
  path: '/api/v1/ingredient-lines',
  operationId: 'readIngredientLines',
  summary: 'Read ingredient lines into amount, unit and food',
  description: DESCRIPTION,
  body: IngredientLinesRequest,
  responses: { 200: { description: 'The lines as read, ingredients only', schema: IngredientLinesResponse } },
  handle: (ctx, { body }) => {
    const read = body.lines.map(parseIngredientLine);
    const ingredients = read.filter((l) => !l.flags.includes('not_an_ingredient') && !l.flags.includes('heading'));
    ctx.body = { lines: ingredients, dropped: read.length - ingredients.length };
  },
});

export const ingredientLineRoutes = () => mount(undefined, [readIngredientLinesRoute]);
