import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, api, dataOf, type DaySuggestion, type RuleNotServed, type WeekSuggestion } from '../../api';
import { useAction } from '../../ui';
import type { Shown } from './suggested-day';

/** Answers meaning the household's AI may not be asked now: the proposal is asked for again without it. */
const AI_REFUSALS: ReadonlySet<string> = new Set(['ai_quota_used', 'ai_paused']);
const SEEDS = 2 ** 32;
/** How many seeds one press of "another one" tries before saying that no other dish fits. */
const DRAWS_PER_PRESS = 4;

type Ask = { seed: number; days?: string[]; keeping?: { date: string; recipeId: string }[] };

/** A fresh draw each time the panel opens, so asking again after discarding gives another week. */
const freshSeed = () => crypto.getRandomValues(new Uint32Array(1))[0]!;

/**
 * The planner's proposal for a week, nothing written until it is saved: asked for when the panel opens, each day
 * drawn again or left out, and the chosen days saved in one call.
 */
export function useWeekSuggestions(householdId: string, planId: string, onSaved: () => void) {
  const [days, setDays] = useState<Shown[] | null>(null);
  const [usualPrice, setUsualPrice] = useState<number | null>(null);
  const [aiNotes, setAiNotes] = useState(false);
  // The rules the whole week's proposal cannot keep (a day drawn again does not change them).
  const [rulesNotServed, setRulesNotServed] = useState<readonly RuleNotServed[]>([]);
  // The 429 that said the AI may not be asked: said once, and the AI is not asked again while the panel is open.
  const [aiRefused, setAiRefused] = useState<unknown>(null);
  const [changing, setChanging] = useState<string | null>(null);
  const [dayError, setDayError] = useState<{ date: string; error: unknown } | null>(null);
  const [noneIncluded, setNoneIncluded] = useState(false);
  const load = useAction();
  const save = useAction();
  const path = { params: { path: { householdId, planId } } };

  /** The proposal; `ai: false` when the AI must not be asked (refused before, or a draw asked again). */
  const suggest = async (ask: Ask, ai?: false): Promise<WeekSuggestion> => {
    const post = (body: Ask & { ai?: boolean }) => dataOf(api.POST('/api/v1/households/{householdId}/plans/{planId}/suggestions', { ...path, body }));
    if (aiRefused || ai === false) return post({ ...ask, ai: false });
    try {
      return await post(ask);
    } catch (err) {
      if (!(err instanceof ApiProblem && err.code !== null && AI_REFUSALS.has(err.code))) throw err;
      setAiRefused(err);
      return post({ ...ask, ai: false });
    }
  };

  const propose = () =>
    load.run(async () => {
      const s = await suggest({ seed: freshSeed() });
      setDays(s.days.map((d) => ({ day: d, include: d.recipeId !== null, seed: s.seed, same: false })));
      setUsualPrice(s.usualPrice);
      setAiNotes(s.aiNotes);
      setRulesNotServed(s.rulesNotServed);
    });
  useEffect(() => void propose(), [householdId, planId]);

  /** Draws the day again; a new seed may draw the same dish, so a few more are tried (without the AI, whose calls are counted). */
  const drawAgain = async (shown: Shown, all: readonly Shown[]) => {
    const date = shown.day.date;
    // The dishes kept for the other days are not proposed again.
    const keeping = all.filter((x) => x.day.date !== date && x.include && x.day.recipeId !== null).map((x) => ({ date: x.day.date, recipeId: x.day.recipeId! }));
    let seed = shown.seed;
    let next: DaySuggestion | undefined;
    for (let tries = 0; tries < DRAWS_PER_PRESS; tries++) {
      seed = (seed + 1) % SEEDS;
      const s = await suggest({ seed, days: [date], keeping }, tries > 0 ? false : undefined);
      if (s.aiNotes) setAiNotes(true);
      next = s.days.find((d) => d.date === date);
      if (!next || next.recipeId === null || next.recipeId !== shown.day.recipeId) break;
    }
    return { next, seed };
  };

  const another = async (shown: Shown) => {
    if (changing !== null || days === null) return;
    const date = shown.day.date;
    setChanging(date);
    setDayError(null);
    try {
      const { next: found, seed } = await drawAgain(shown, days);
      if (found) setDays((all) => all!.map((x) => (x.day.date === date ? { day: found, include: found.recipeId !== null, seed, same: found.recipeId === x.day.recipeId } : x)));
    } catch (err) {
      setDayError({ date, error: err });
    } finally {
      setChanging(null);
    }
  };

  const include = (date: string, on: boolean) => {
    setNoneIncluded(false);
    setDays((all) => all!.map((x) => (x.day.date === date ? { ...x, include: on } : x)));
  };

  const saveWeek = () =>
    save.run(async () => {
      // A day of leftovers goes with its cooking day (the service refuses it alone, with a sentence).
      const chosen = (days ?? [])
        .filter((x) => x.include && x.day.recipeId !== null)
        .map((x) => ({ date: x.day.date, recipeId: x.day.recipeId!, ...(x.day.leftoversOf !== null ? { leftoversOf: x.day.leftoversOf } : {}) }));
      setNoneIncluded(chosen.length === 0);
      if (chosen.length === 0) return;
      await api.POST('/api/v1/households/{householdId}/plans/{planId}/suggestions/accept', { ...path, body: { days: chosen } });
      onSaved();
    });

  // The estimates of the days "Lagre uka" would save (a day left out costs nothing), added up as the service adds
  // up a whole proposal; how many of them are priced is said too.
  const dishes = (days ?? []).filter((x) => x.day.recipeId !== null && x.include);
  const priced = dishes.map((x) => x.day.estimatedPrice).filter((p): p is number => p !== null);
  const prices = { estimated: priced.length === 0 ? null : priced.reduce((a, b) => a + b, 0), priced: priced.length, dishes: dishes.length, usual: usualPrice };

  return { days, prices, aiNotes, rulesNotServed, aiRefused, changing, dayError, noneIncluded, load, save, propose, another, include, saveWeek };
}
