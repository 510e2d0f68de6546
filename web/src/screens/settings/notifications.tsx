import { t } from '../../i18n';
import { Problem } from '../../ui';
import { SettingsPage } from './settings-page';
import { SWITCHES, useNotifications } from './use-notifications';

/** The page of the settings for pushes to this browser. */
export const NotificationsPage = () => (
  <SettingsPage title={t.value.settingsSection.notifications}>
    <Notifications />
  </SettingsPage>
);

/** Pushes to this browser, turned on and off, and what they are about. The service worker shows what arrives (web/public/push.js). */
function Notifications() {
  const m = t.value;
  const { standing, device, act, turnOn, turnOff, flip } = useNotifications();
  return (
    <section aria-labelledby="notifications-h">
      <h2 id="notifications-h">{m.notifications}</h2>
      {standing === 'unsupported' && <p>{m.notificationsUnsupported}</p>}
      {standing === 'not-configured' && <p>{m.notificationsNotConfigured}</p>}
      {standing === 'denied' && <p>{m.notificationsDenied}</p>}
      {standing === 'ready' && !device && (
        <>
          <p class="muted">{m.notificationsAbout}</p>
          <button type="button" disabled={act.busy} onClick={() => void turnOn()}>
            {m.notificationsOn}
          </button>
        </>
      )}
      {standing === 'ready' && device && (
        <>
          <p role="status">{m.notificationsAreOn}</p>
          <fieldset>
            <legend>{m.notificationsWhat}</legend>
            {SWITCHES.map((s) => (
              <label key={s} class="check">
                <input type="checkbox" checked={device[s]} disabled={act.busy} onChange={(e) => void flip(s, e.currentTarget.checked)} /> {m.pushSwitch[s]}
              </label>
            ))}
          </fieldset>
          <button type="button" class="secondary" disabled={act.busy} onClick={() => void turnOff()}>
            {m.notificationsOff}
          </button>
        </>
      )}
      <Problem error={act.error} />
    </section>
  );
}
