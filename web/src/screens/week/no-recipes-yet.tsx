import { api, dataOf } from '../../api';
import { t } from '../../i18n';
import { householdInfo, loadHousehold } from '../../state';
import { Problem, useAction } from '../../ui';

/**
 * A household with no recipe to plan from: said once (on a new household's week, and by "suggest the week" instead
 * of on every day), with the three ways to get going (the recipe library in one tap, a recipe from a web page, one
 * typed in), and "not now" where the person may put it off.
 */
export function NoRecipesYet({ householdId, onLibraryOn, onNotNow, Heading = 'h3' }: { householdId: string; onLibraryOn: () => void; onNotNow?: () => void; Heading?: 'h2' | 'h3' }) {
  const m = t.value;
  const act = useAction();
  const libraryOff = householdInfo.value?.libraryRecipesOn !== true;
  const useLibrary = () =>
    act.run(async () => {
      await dataOf(api.PATCH('/api/v1/households/{householdId}', { params: { path: { householdId } }, body: { libraryRecipesOn: true } }));
      await loadHousehold();
      onLibraryOn();
    });
  return (
    <div class="first-run" role="region" aria-labelledby="no-recipes-h">
      <Heading id="no-recipes-h">{m.noRecipesYetTitle}</Heading>
      <p>{m.noRecipesYet}</p>
      <ul class="first-run-ways">
        {libraryOff && (
          <li>
            <button type="button" disabled={act.busy} onClick={() => void useLibrary()}>
              {m.useRecipeLibrary}
            </button>
            <span class="muted">{m.useRecipeLibraryAbout}</span>
          </li>
        )}
        <li>
          <a class="button secondary" href="/recipes#f-import-url">
            {m.importFromAddress}
          </a>
        </li>
        <li>
          <a class="button secondary" href="/recipes/new">
            {m.typeARecipe}
          </a>
        </li>
      </ul>
      {onNotNow && (
        <p>
          <button type="button" class="link" onClick={onNotNow}>
            {m.notNow}
          </button>
        </p>
      )}
      <Problem error={act.error} />
    </div>
  );
}
