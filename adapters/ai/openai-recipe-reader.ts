import * as v from 'valibot';
import type { PictureRecipe, RecipePictureRead, RecipePictureReader, RecipePictureType } from '../../ports/recipe-picture-reader.js';
import type { OpenAiSettings } from './openai-planner.js';

/** A recipe is a few kilobytes of text: an answer larger than this is refused unread. */
const ANSWER_MAX_BYTES = 512 * 1024;

const INSTRUCTIONS =
  'You read recipes from photos and scans for a family. Write down the recipe in the file exactly as it is written ' +
  'there, in its own language; do not translate, invent, add or complete anything. Answer with JSON only, of this shape: ' +
  '{"recipe":{"title":"...","yields":"4 porsjoner" or null,"servings":4 or null,"totalMinutes":45 or null,' +
  '"activeMinutes":15 or null,"ingredients":["400 g kjøttdeig","1 løk"],"steps":["Brun kjøttet.","..."]}}. ' +
  'Each ingredient is one line as written (amount, unit and food); each step is one step of the method, without its ' +
  'number. servings is the number of portions the recipe says it makes; minutes only when the recipe states a time. ' +
  'If the file holds no recipe, or it cannot be read, answer {"recipe":null}.';

const Text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));
const Minutes = v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_080)), null);
/** The recipe the AI is asked for; anything else (a missing title, a number as a line, 101 lines) is unreadable. */
const AnswerSchema = v.object({
  recipe: v.nullable(
    v.object({
      title: Text(200),
      yields: v.nullish(v.pipe(v.string(), v.trim(), v.maxLength(100)), null),
      servings: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), null),
      totalMinutes: Minutes,
      activeMinutes: Minutes,
      ingredients: v.pipe(v.array(Text(500)), v.maxLength(100)),
      steps: v.pipe(v.array(Text(2000)), v.maxLength(100)),
    }),
  ),
});

/**
 * The recipe reader over an OpenAI-compatible chat completions endpoint: one request with the file as its only
 * content (a picture as an image_url data URL, a PDF as a file part with file_data), asking for strict JSON
 * (response_format json_object) that is then checked against AnswerSchema. Nothing of the household is sent: the
 * instructions are fixed, and the PDF's filename is always "recipe.pdf".
 */
export function openAiRecipeReader(settings: OpenAiSettings, fetchImpl: typeof fetch = fetch): RecipePictureReader {
  return {
    async read({ bytes, mediaType }) {
      let text: string;
      try {
        const response = await fetchImpl(`${settings.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
          body: JSON.stringify(requestBody(settings.model, bytes, mediaType)),
          signal: AbortSignal.timeout(settings.timeoutMs),
          redirect: 'error',
        });
        if (!response.ok) return { ok: false, reason: 'unreachable' };
        if (Number(response.headers.get('content-length') ?? '0') > ANSWER_MAX_BYTES) return { ok: false, reason: 'unreadable' };
        text = await response.text();
      } catch {
        return { ok: false, reason: 'unreachable' };
      }
      if (Buffer.byteLength(text) > ANSWER_MAX_BYTES) return { ok: false, reason: 'unreadable' };
      return recipeOf(text);
    },
  };
}

/** The chat completion request for one file. */
export function requestBody(model: string, bytes: Uint8Array, mediaType: RecipePictureType) {
  const data = `data:${mediaType};base64,${Buffer.from(bytes).toString('base64')}`;
  const file =
    mediaType === 'application/pdf'
      ? { type: 'file', file: { filename: 'recipe.pdf', file_data: data } }
      : { type: 'image_url', image_url: { url: data } };
  return {
    model,
    temperature: 0,
    response_format: { type: 'json_object' },
    messages: [
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: [{ type: 'text', text: 'The recipe is in this file.' }, file] },
    ],
  };
}

/** The recipe in a chat completion's answer, or why there is none. */
export function recipeOf(completion: string): RecipePictureRead {
  let content: unknown;
  try {
    const parsed = JSON.parse(completion) as { choices?: { message?: { content?: unknown } }[] };
    const message = parsed.choices?.[0]?.message?.content;
    if (typeof message !== 'string') return { ok: false, reason: 'unreadable' };
    // Some servers wrap JSON in a code fence even when asked not to.
    content = JSON.parse(message.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const checked = v.safeParse(AnswerSchema, content);
  if (!checked.success) return { ok: false, reason: 'unreadable' };
  const r = checked.output.recipe;
  if (r === null) return { ok: false, reason: 'no-recipe' };
  const recipe: PictureRecipe = {
    title: r.title,
    ingredientLines: r.ingredients,
    steps: r.steps,
    yields: r.yields || null,
    servings: r.servings,
    totalMinutes: r.totalMinutes,
    activeMinutes: r.activeMinutes !== null && (r.totalMinutes === null || r.activeMinutes <= r.totalMinutes) ? r.activeMinutes : null,
  };
  return { ok: true, recipe };
}
