import { t } from '../../i18n';
import { household } from '../../state';
import { ImportHousehold } from '../../ui/import-household';
import { SettingsPage } from './settings-page';

/** The household as one file to keep or to move (Owners download it), and a new household made from such a file (anyone). */
export function DataPage({ householdId }: { householdId: string }) {
  const m = t.value;
  const owner = household.value?.role === 'Owner';
  return (
    <SettingsPage title={m.settingsSection.data}>
      <section aria-labelledby="download-h">
        <h2 id="download-h">{m.downloadTitle}</h2>
        {owner ? (
          <>
            <p>{m.downloadAbout}</p>
            <p>
              {/* A plain link: the session cookie goes along, the service names the file, and a large one streams to disk. */}
              <a class="button secondary" href={`/api/v1/households/${encodeURIComponent(householdId)}/export`} download>
                {m.downloadHousehold}
              </a>
            </p>
          </>
        ) : (
          <p class="muted">{m.downloadOwnerOnly}</p>
        )}
      </section>
      <ImportHousehold level="h2" />
    </SettingsPage>
  );
}
