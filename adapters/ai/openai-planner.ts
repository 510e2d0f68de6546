import type { AiDinner, PlannerAi } from '../../ports/planner-ai.js';

export interface OpenAiSettings {
  /** The endpoint's base, e.g. `https://api.openai.com/v1` (the path `/chat/completions` is added). */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string | null;
  readonly timeoutMs: number;
}

/** An answer larger than this is not a few tips: it is refused unread. */
const ANSWER_MAX_BYTES = 256 * 1024;

const INSTRUCTIONS = {
  nb: 'Du hjelper en familie med middagen. For hver middag: gi 1 til 3 korte, praktiske serveringsnotater eller tips på norsk bokmål (høyst 200 tegn hver). Nevn aldri en matvare som står under "unngå", heller ikke som tilbehør.',
  en: 'You help a family with dinner. For each dinner give 1 to 3 short, practical serving notes or tips in English (at most 200 characters each). Never mention a food listed under "avoid", not even as a side.',
} as const;

/**
 * The planner's AI over an OpenAI-compatible chat completions endpoint (OpenAI, a local llama.cpp or Ollama
 * server, ...): one request for the week, asking for JSON `{ "days": [{ "date", "tips": [] }] }`. Anything but a 2xx
 * answer holding that shape within the time allowed throws; the planner then writes its notes by rule.
 */
export function openAiPlanner(settings: OpenAiSettings, fetchImpl: typeof fetch = fetch): PlannerAi {
  return {
    async servingTips({ language, dinners }) {
      const body = {
        model: settings.model,
        temperature: 0.4,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: `${INSTRUCTIONS[language]} Answer with JSON only: {"days":[{"date":"YYYY-MM-DD","tips":["..."]}]}.` },
          { role: 'user', content: JSON.stringify({ dinners: dinners.map(describe) }) },
        ],
      };
      const response = await fetchImpl(`${settings.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(settings.timeoutMs),
        redirect: 'error',
      });
      if (!response.ok) throw new Error(`AI answered ${response.status}`);
      const declared = Number(response.headers.get('content-length') ?? '0');
      if (declared > ANSWER_MAX_BYTES) throw new Error('AI answer too large');
      const text = await response.text();
      if (Buffer.byteLength(text) > ANSWER_MAX_BYTES) throw new Error('AI answer too large');
      return tipsOf(text, new Set(dinners.map((d) => d.date)));
    },
  };
}

const describe = (d: AiDinner) => ({
  date: d.date,
  dish: d.recipeTitle,
  ingredients: d.ingredients,
  avoid: d.avoids,
  portions: d.portions,
  ...(d.cookingMinutes !== null ? { minutesToCook: d.cookingMinutes } : {}),
});

/** The tips by date from a chat completion; throws when the answer is not the JSON asked for. */
export function tipsOf(completion: string, dates: ReadonlySet<string>): Map<string, string[]> {
  const parsed = JSON.parse(completion) as { choices?: { message?: { content?: unknown } }[] };
  const content = parsed.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('AI answer has no message');
  // Some servers wrap JSON in a code fence even when asked not to.
  const json = JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '')) as { days?: unknown };
  if (!Array.isArray(json.days)) throw new Error('AI answer has no days');
  const out = new Map<string, string[]>();
  for (const day of json.days as { date?: unknown; tips?: unknown }[]) {
    if (typeof day?.date !== 'string' || !dates.has(day.date) || !Array.isArray(day.tips)) continue;
    out.set(day.date, day.tips.filter((t): t is string => typeof t === 'string'));
  }
  return out;
}
