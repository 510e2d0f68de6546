import { api, dataOf } from '../../api';
import { t } from '../../i18n';
import { householdInfo, loadHousehold } from '../../state';
import { Problem, useAction } from '../../ui';

/**
 * "Suggest the week" for a household with no recipe to suggest from: said once, not on every day, with the three
 * ways to get going (the recipe library in one tap, a recipe from a web address, one typed in).
 */
export function NoRecipesYet({ householdId, onLibraryOn }: { householdId: string; onLibraryOn: () => void }) {
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
      <h3 id="no-recipes-h">{m.noRecipesYetTitle}</h3>
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
      <Problem error={act.error} />
    </div>
  );
}
