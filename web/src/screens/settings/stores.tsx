import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { t } from '../../i18n';
import { household } from '../../state';
import { SettingsForm } from '../../ui';
import { Chains } from './chains';
import { LinkRows, SettingsPage } from './settings-page';

/** Where the household shops and what its prices come from: the chains, the list's prices and pushes, receipts and dinner prices. */
export function StoresPage({ householdId }: { householdId: string }) {
  const m = t.value;
  const adult = household.value?.role !== 'Junior';
  const rows = [
    { href: '/receipts', name: m.receipts, about: m.receiptsInShort },
    { href: '/dinner-prices', name: m.dinnerPrices, about: m.dinnerPricesInShort },
  ];
  return (
    <SettingsPage title={m.settingsSection.stores}>
      <Chains householdId={householdId} adult={adult} />
      {adult && <ShoppingSettings householdId={householdId} />}
      <h2>{m.moreAboutPrices}</h2>
      <LinkRows id="prices" rows={rows} />
    </SettingsPage>
  );
}

/** Whether the others hear of changes to the list, and whether it shows suggested prices and better choices (adults). */
function ShoppingSettings({ householdId }: { householdId: string }) {
  const m = t.value;
  const [settings, setSettings] = useState<{ sharingOff: boolean; priceCatalogueOn: boolean } | null>(null);
  const path = { params: { path: { householdId } } };
  useEffect(
    () =>
      void dataOf(api.GET('/api/v1/households/{householdId}/shopping-settings', path)).then(
        (s) => setSettings({ sharingOff: s.sharingOff, priceCatalogueOn: s.priceCatalogueOn }),
        () => undefined,
      ),
    [householdId],
  );
  if (!settings) return null;
  const save = () => api.PATCH('/api/v1/households/{householdId}/shopping-settings', { ...path, body: settings });
  return (
    <SettingsForm id="shopping" title={m.shoppingListSettings} button={m.save} done={m.saved} onSubmit={save}>
      <label class="check">
        <input type="checkbox" checked={!settings.sharingOff} onChange={(e) => setSettings({ ...settings, sharingOff: !e.currentTarget.checked })} />
        {m.shareListChanges}
      </label>
      <label class="check">
        <input type="checkbox" checked={settings.priceCatalogueOn} onChange={(e) => setSettings({ ...settings, priceCatalogueOn: e.currentTarget.checked })} />
        {m.usePriceCatalogue}
      </label>
    </SettingsForm>
  );
}
