import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { t } from '../../i18n';
import { household } from '../../state';
import { Problem, useAction } from '../../ui';
import { CalendarFeeds } from './calendar-feeds';
import { SettingsPage } from './settings-page';

/** The household's dinners in a calendar, and the calendars that make its evenings busy; a Junior reads, adults change. */
export function CalendarPage({ householdId }: { householdId: string }) {
  const adult = household.value?.role !== 'Junior';
  return (
    <SettingsPage title={t.value.settingsSection.calendar}>
      <DinnerCalendar householdId={householdId} adult={adult} />
      <CalendarFeeds householdId={householdId} adult={adult} />
    </SettingsPage>
  );
}

/** The household's dinners as a calendar to subscribe to: the link, a new one when it leaked, or none (adults). */
function DinnerCalendar({ householdId, adult }: { householdId: string; adult: boolean }) {
  const m = t.value;
  const [link, setLink] = useState<{ url: string | null; webcalUrl: string | null } | null>(null);
  const [copied, setCopied] = useState(false);
  const act = useAction();
  const path = { params: { path: { householdId } } };
  useEffect(() => void act.run(async () => setLink(await dataOf(api.GET('/api/v1/households/{householdId}/dinner-calendar', path)))), [householdId]);
  const change = (what: 'reset' | 'off') =>
    act.run(async () => {
      setCopied(false);
      if (what === 'reset') setLink(await dataOf(api.POST('/api/v1/households/{householdId}/dinner-calendar/reset', path)));
      else {
        await api.DELETE('/api/v1/households/{householdId}/dinner-calendar', path);
        setLink({ url: null, webcalUrl: null });
      }
    });
  return (
    <section aria-labelledby="calendar-h">
      <h2 id="calendar-h">{m.dinnerCalendar}</h2>
      <p class="muted">{m.dinnerCalendarAbout}</p>
      {link?.url ? (
        <>
          <p>
            <code class="link-text">{link.url}</code>
          </p>
          <div class="row">
            <button
              type="button"
              onClick={() => void navigator.clipboard?.writeText(link.url!).then(() => setCopied(true), () => setCopied(false))}
            >
              {m.copy}
            </button>
            {link.webcalUrl && (
              <a class="button secondary" href={link.webcalUrl}>
                {m.subscribe}
              </a>
            )}
            {adult && (
              <>
                <button type="button" class="secondary" disabled={act.busy} onClick={() => void change('reset')}>
                  {m.newLink}
                </button>
                <button type="button" class="link" disabled={act.busy} onClick={() => void change('off')}>
                  {m.turnOff}
                </button>
              </>
            )}
          </div>
          {copied && <p role="status">{m.copied}</p>}
        </>
      ) : (
        link && (
          <p>
            {m.calendarOff}{' '}
            {adult && (
              <button type="button" class="secondary" disabled={act.busy} onClick={() => void change('reset')}>
                {m.turnOn}
              </button>
            )}
          </p>
        )
      )}
      <Problem error={act.error} />
    </section>
  );
}
