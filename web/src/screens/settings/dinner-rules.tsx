import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, type DinnerRule, type RecipeSummary } from '../../api';
import { dinnerRules, loadDinnerRules, RULE_WEEKDAYS, ruleWords, weekdayWord, type RuleWeekday } from '../../dinner-rules';
import { t } from '../../i18n';
import { household } from '../../state';
import { ActionForm, Problem, RecipeSelect, useAction, type Action } from '../../ui';
import { SettingsPage } from './settings-page';

type RuleBody = { kind: 'FixedDish'; weekday: RuleWeekday; recipeId: string } | { kind: 'TagPerWeek'; tag: string; timesPerWeek: number } | { kind: 'Spacing'; days: number; recipeId: string | null };

/** The household's dinner rules: each as a sentence (adults may remove it), and three small forms to add one (adults). */
export function DinnerRulesPage({ householdId }: { householdId: string }) {
  const m = t.value;
  const adult = household.value?.role !== 'Junior';
  const [recipes, setRecipes] = useState<RecipeSummary[]>([]);
  const [tags, setTags] = useState<string[]>([]);
  const [said, setSaid] = useState('');
  const load = useAction();
  const read = dinnerRules.value?.householdId === householdId ? dinnerRules.value.rules : null;
  useEffect(() => {
    void load.run(() => loadDinnerRules(householdId, true));
    if (!adult) return;
    void dataOf(api.GET('/api/v1/households/{householdId}/recipe-summaries', { params: { path: { householdId }, query: { limit: '100' } } })).then((p) => setRecipes(p.items), () => undefined);
    void dataOf(api.GET('/api/v1/households/{householdId}/recipe-tags', { params: { path: { householdId }, query: { limit: '100' } } })).then((p) => setTags(p.items.map((x) => x.tag)), () => undefined);
  }, [householdId, adult]);
  const add = async (body: RuleBody) => {
    setSaid('');
    const rule = await dataOf(api.POST('/api/v1/households/{householdId}/dinner-rules', { params: { path: { householdId } }, body }));
    await loadDinnerRules(householdId, true);
    setSaid(m.ruleAdded(m.ruleSentence(ruleWords(rule)).slice(0, -1)));
  };
  return (
    <SettingsPage title={m.settingsSection.dinners}>
      <p class="muted">{m.dinnerRulesAbout}</p>
      <p role="status" class="moved">
        {said}
      </p>
      <RuleList householdId={householdId} rules={read} adult={adult} onRemoved={setSaid} />
      <Problem error={load.error} />
      {adult && (
        <>
          <FixedDishForm recipes={recipes} onAdd={add} />
          <TagRuleForm tags={tags} onAdd={add} />
          <SpacingForm recipes={recipes} onAdd={add} />
          <p class="muted">{m.dinnerRulesMax(20)}</p>
        </>
      )}
    </SettingsPage>
  );
}

function RuleList({ householdId, rules, adult, onRemoved }: { householdId: string; rules: readonly DinnerRule[] | null; adult: boolean; onRemoved: (said: string) => void }) {
  const m = t.value;
  const act = useAction();
  const remove = (r: DinnerRule, sentence: string) =>
    act.run(async () => {
      await api.DELETE('/api/v1/households/{householdId}/dinner-rules/{ruleId}', { params: { path: { householdId, ruleId: r.id } } });
      await loadDinnerRules(householdId, true);
      onRemoved(m.ruleRemoved(sentence));
    });
  if (rules === null) return <p>{m.loading}</p>;
  return (
    <section aria-labelledby="rules-h">
      <h2 id="rules-h">{m.dinnerRulesList}</h2>
      {rules.length === 0 ? (
        <p>{m.noDinnerRules}</p>
      ) : (
        <ul class="rule-list">
          {rules.map((r) => {
            const sentence = m.ruleSentence(ruleWords(r)).slice(0, -1);
            return (
              <li key={r.id}>
                <span>{sentence}</span>
                {adult && (
                  <button type="button" class="secondary" disabled={act.busy} aria-label={m.removeRule(sentence)} onClick={() => void remove(r, sentence)}>
                    {m.remove}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Problem error={act.error} />
    </section>
  );
}

/** One of the forms that add a rule: its heading, its fields, its button and what went wrong. */
function RuleForm({ id, title, act, onSubmit, children }: { id: string; title: string; act: Action; onSubmit: () => Promise<unknown>; children: preact.ComponentChildren }) {
  return (
    <section aria-labelledby={`${id}-h`} class="rule-form">
      <h2 id={`${id}-h`}>{title}</h2>
      <ActionForm action={act} button={t.value.addRule} onSubmit={onSubmit}>
        {children}
      </ActionForm>
    </section>
  );
}

const capitalized = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

function WeekdaySelect({ id, value, onChange }: { id: string; value: RuleWeekday; onChange: (w: RuleWeekday) => void }) {
  return (
    <>
      <label for={id}>{t.value.ruleWeekday}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as RuleWeekday)}>
        {RULE_WEEKDAYS.map((w) => (
          <option key={w} value={w}>
            {capitalized(weekdayWord(w))}
          </option>
        ))}
      </select>
    </>
  );
}

function FixedDishForm({ recipes, onAdd }: { recipes: readonly RecipeSummary[]; onAdd: (b: RuleBody) => Promise<void> }) {
  const m = t.value;
  const act = useAction();
  const [recipeId, setRecipeId] = useState('');
  const [weekday, setWeekday] = useState<RuleWeekday>('Friday');
  return (
    <RuleForm id="fixed-rule" title={m.addFixedDish} act={act} onSubmit={() => onAdd({ kind: 'FixedDish', weekday, recipeId }).then(() => setRecipeId(''))}>
      <RecipeSelect id="fixed-recipe" label={m.ruleDish} none={m.chooseRecipe} recipes={recipes} value={recipeId} onChange={setRecipeId} required />
      <WeekdaySelect id="fixed-weekday" value={weekday} onChange={setWeekday} />
    </RuleForm>
  );
}

function TagRuleForm({ tags, onAdd }: { tags: readonly string[]; onAdd: (b: RuleBody) => Promise<void> }) {
  const m = t.value;
  const act = useAction();
  const [tag, setTag] = useState('');
  const [times, setTimes] = useState('2');
  if (tags.length === 0) {
    return (
      <section aria-labelledby="tag-rule-h" class="rule-form">
        <h2 id="tag-rule-h">{m.addTagRule}</h2>
        <p class="muted">{m.noTagsYet}</p>
      </section>
    );
  }
  return (
    <RuleForm id="tag-rule" title={m.addTagRule} act={act} onSubmit={() => onAdd({ kind: 'TagPerWeek', tag, timesPerWeek: Number(times) })}>
      <label for="tag-rule-tag">{m.ruleTag}</label>
      <select id="tag-rule-tag" required value={tag} onChange={(e) => setTag(e.currentTarget.value)}>
        <option value="">{m.chooseTag}</option>
        {tags.map((x) => (
          <option key={x} value={x}>
            {x}
          </option>
        ))}
      </select>
      <label for="tag-rule-times">{m.ruleTimes}</label>
      <input id="tag-rule-times" type="number" inputMode="numeric" min={1} max={7} required value={times} onInput={(e) => setTimes(e.currentTarget.value)} />
    </RuleForm>
  );
}

function SpacingForm({ recipes, onAdd }: { recipes: readonly RecipeSummary[]; onAdd: (b: RuleBody) => Promise<void> }) {
  const m = t.value;
  const act = useAction();
  const [days, setDays] = useState('7');
  const [recipeId, setRecipeId] = useState('');
  return (
    <RuleForm id="spacing-rule" title={m.addSpacingRule} act={act} onSubmit={() => onAdd({ kind: 'Spacing', days: Number(days), recipeId: recipeId === '' ? null : recipeId })}>
      <label for="spacing-days">{m.ruleDays}</label>
      <input id="spacing-days" type="number" inputMode="numeric" min={2} max={60} required value={days} onInput={(e) => setDays(e.currentTarget.value)} />
      <RecipeSelect id="spacing-recipe" label={m.ruleAppliesTo} none={m.everyDish} recipes={recipes} value={recipeId} onChange={setRecipeId} />
    </RuleForm>
  );
}
