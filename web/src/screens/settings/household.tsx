import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, dataOf } from '../../api';
import { t, type Language } from '../../i18n';
import { household, householdInfo, loadHousehold, loadMe } from '../../state';
import { Field, LanguageAndZone, SettingsForm } from '../../ui';
import { PlanAndReferrals } from './plan-and-referrals';
import { DangerStep, SettingsPage } from './settings-page';

/** The household: what an adult sets for it, its plan, and leaving it (anyone). */
export function HouseholdPage({ householdId }: { householdId: string }) {
  const m = t.value;
  const { route } = useLocation();
  const mine = household.value;
  const leave = async () => {
    await api.DELETE('/api/v1/households/{householdId}/members/{memberId}', { params: { path: { householdId, memberId: mine!.memberId! } } });
    await loadMe();
    route('/', true);
  };
  return (
    <SettingsPage title={m.settingsSection.household}>
      {mine?.role !== 'Junior' && householdInfo.value && <HouseholdForm householdId={householdId} />}
      <PlanAndReferrals householdId={householdId} />
      {mine?.memberId && (
        <DangerStep id="leave" title={m.leaveTitle} button={m.leaveHousehold(mine.householdName)} question={m.confirmLeave(mine.householdName)} yes={m.yesLeave} onYes={leave} />
      )}
    </SettingsPage>
  );
}

/** Name, language, time zone, dinner time, what the household would rather not eat, and where suggestions come from (adults). */
function HouseholdForm({ householdId }: { householdId: string }) {
  const m = t.value;
  const h = householdInfo.value!;
  const [name, setName] = useState(h.name);
  const [lang, setLang] = useState<Language>(h.language);
  const [zone, setZone] = useState(h.timeZoneId);
  const [zones, setZones] = useState<string[]>([h.timeZoneId]);
  const [dinner, setDinner] = useState(h.dinnerTime);
  const [dislikes, setDislikes] = useState(h.dislikes.join(', '));
  const [library, setLibrary] = useState(h.libraryRecipesOn);
  const [keep, setKeep] = useState(String(h.leftoversKeepDays));
  useEffect(() => void dataOf(api.GET('/api/v1/time-zones')).then((r) => setZones([...r.timeZones].sort()), () => undefined), []);
  const save = async () => {
    const words = dislikes.split(',').map((w) => w.trim()).filter((w) => w !== '');
    await api.PATCH('/api/v1/households/{householdId}', { params: { path: { householdId } }, body: { name, language: lang, timeZoneId: zone, dinnerTime: dinner, dislikes: words, libraryRecipesOn: library, leftoversKeepDays: Math.min(7, Math.max(1, Math.round(Number(keep)) || 3)) } });
    await Promise.all([loadHousehold(), loadMe()]);
  };
  return (
    <SettingsForm id="household" title={m.householdFormTitle} button={m.save} done={m.saved} onSubmit={save}>
      <Field label={m.householdName} name="householdName" required maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <LanguageAndZone id="f-h" language={lang} onLanguage={setLang} zone={zone} zones={zones} onZone={setZone} />
      <Field label={m.dinnerTime} name="dinnerTime" type="time" required value={dinner} onInput={(e) => setDinner(e.currentTarget.value)} />
      <Field label={m.dislikes} name="dislikes" maxLength={2000} value={dislikes} onInput={(e) => setDislikes(e.currentTarget.value)} />
      <label class="check">
        <input type="checkbox" checked={library} onChange={(e) => setLibrary(e.currentTarget.checked)} />
        {m.libraryRecipesOn}
      </label>
      <Field label={m.leftoversKeepDays} name="leftoversKeepDays" type="number" min={1} max={7} required value={keep} onInput={(e) => setKeep(e.currentTarget.value)} />
    </SettingsForm>
  );
}
