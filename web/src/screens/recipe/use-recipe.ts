import { useEffect, useReducer, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { ApiProblem, api, dataOf, type Recipe } from '../../api';
import { importDraft } from '../../state';
import { useAction } from '../../ui';
import { bodyOf, formStep, startingForm } from './recipe-form';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One recipe on screen, new (recipeId null) or saved: the form as one value, the recipe it was read from, and the
 * calls that read, save and delete it and read typed lines. A new recipe may start from one read from a web page.
 */
export function useRecipe(householdId: string, recipeId: string | null) {
  const { route } = useLocation();
  // A recipe read from a page: the form starts from it (in its first render, so the empty form never shows).
  const [draft] = useState(() => (recipeId === null ? importDraft.peek() : null));
  const [form, change] = useReducer(formStep, draft, startingForm);
  const [loaded, setLoaded] = useState<Recipe | null>(null);
  const load = useAction();
  const save = useAction();
  const reading = useAction();
  const recipePath = (id: string) => ({ params: { path: { householdId, recipeId: id } } });

  useEffect(() => {
    // The draft is taken: opening the new-recipe screen again starts empty.
    if (draft) importDraft.value = null;
    if (recipeId === null) return;
    void load.run(async () => {
      // An address that names no recipe (a typo, an old bookmark) is "not found", not a form error.
      if (!UUID.test(recipeId)) throw new ApiProblem(404, 'recipe_not_found');
      const r = await dataOf(api.GET('/api/v1/households/{householdId}/recipes/{recipeId}', recipePath(recipeId)));
      setLoaded(r);
      change({ type: 'loaded', recipe: r });
    });
  }, [householdId, recipeId]);

  /** Typed or pasted lines are read by the service, with the reader a recipe imported from a page goes through. */
  const readLines = () => {
    const lines = form.quick.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) return;
    void reading.run(async () => {
      const read = await dataOf(api.POST('/api/v1/ingredient-lines', { body: { lines } }));
      change({ type: 'linesRead', lines: read.lines });
    });
  };

  const submit = () =>
    save.run(async () => {
      const body = bodyOf(form, draft, loaded);
      // An amount that is not a number is said here, beside its line, before the service is asked.
      const badAmount = body.ingredients.findIndex((i) => i.quantity !== null && !(Number.isFinite(i.quantity) && i.quantity > 0));
      if (badAmount >= 0) throw new ApiProblem(400, 'validation_failed', ['quantity'], {}, [`body.ingredients.${badAmount}.quantity`]);
      if (recipeId === null) await api.POST('/api/v1/households/{householdId}/recipes', { params: { path: { householdId } }, body });
      else await api.PUT('/api/v1/households/{householdId}/recipes/{recipeId}', { ...recipePath(recipeId), body });
      route('/recipes');
    });

  const remove = () =>
    save.run(async () => {
      if (recipeId === null) return;
      await api.DELETE('/api/v1/households/{householdId}/recipes/{recipeId}', recipePath(recipeId));
      route('/recipes', true);
    });

  return { draft, form, change, loaded, setLoaded, load, save, reading, readLines, submit, remove };
}
