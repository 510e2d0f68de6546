import { t } from '../../i18n';
import { AccessTokensPage } from './access-tokens';
import { household } from '../../state';
import { Page } from '../../ui';
import { CalendarPage } from './calendar';
import { DataPage } from './data';
import { DinnerRulesPage } from './dinner-rules';
import { HouseholdPage } from './household';
import { MeSettings } from './me';
import { NotificationsPage } from './notifications';
import { LinkRows, useTitle } from './settings-page';
import { StoresPage } from './stores';

/** The settings' pages, in the order their list shows them; each is /settings/<name>. */
const SECTIONS = ['me', 'household', 'dinners', 'stores', 'calendar', 'notifications', 'data', 'tokens'] as const;
type Section = (typeof SECTIONS)[number];
const isSection = (s: string | undefined): s is Section => (SECTIONS as readonly (string | undefined)[]).includes(s);

/**
 * The settings: a short list of their pages (/settings), or one of them (/settings/me, …). A Junior's list leaves out
 * the stores and prices, where she may change nothing, and says of the others what she may do there.
 */
export function Settings({ householdId, section }: { householdId: string; section?: string }) {
  if (!isSection(section)) return <SettingsList />;
  switch (section) {
    case 'me':
      return <MeSettings />;
    case 'household':
      return <HouseholdPage householdId={householdId} />;
    case 'dinners':
      return <DinnerRulesPage householdId={householdId} />;
    case 'stores':
      return <StoresPage householdId={householdId} />;
    case 'calendar':
      return <CalendarPage householdId={householdId} />;
    case 'notifications':
      return <NotificationsPage />;
    case 'data':
      return <DataPage householdId={householdId} />;
    case 'tokens':
      return <AccessTokensPage householdId={householdId} />;
  }
}

function SettingsList() {
  const m = t.value;
  useTitle(m.settings);
  const junior = household.value?.role === 'Junior';
  const about = junior ? { ...m.settingsSectionAbout, ...m.settingsSectionAboutJunior } : m.settingsSectionAbout;
  const rows = SECTIONS.filter((s) => !(junior && s === 'stores')).map((s) => ({ href: `/settings/${s}`, name: m.settingsSection[s], about: about[s] }));
  return (
    <Page title={m.settings}>
      <LinkRows id="settings" rows={rows} />
      <p class="settings-feedback">
        <a href="/feedback">{m.giveFeedback}</a>
      </p>
    </Page>
  );
}
