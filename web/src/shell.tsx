import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { t } from './i18n';
import { online, waiting } from './offline';
import { household, me, pickHousehold, signOut } from './state';
import { UndoBar } from './ui/undo';

/** A link of the main menu; the one for the screen that is open says so to screen readers. */
function NavLink({ href, here, children }: { href: string; here: boolean; children: ComponentChildren }) {
  return (
    <a href={href} aria-current={here ? 'page' : undefined}>
      {children}
    </a>
  );
}

/** Offline, and how many changes wait to be sent: said where every screen shows it, and read out when it changes. */
function OfflineNote() {
  const m = t.value;
  const n = waiting.value.length;
  const text = !online.value ? (n > 0 ? m.offlineWaiting(n) : m.offline) : n > 0 ? m.sendingChanges(n) : '';
  return (
    <p class="offline-note" role="status">
      {text}
    </p>
  );
}

/** The bar above every screen of a signed-in person: the household, the settings, signing out, and the main menu. */
function Header() {
  const m = t.value;
  const { path, route } = useLocation();
  const who = me.value;
  const h = household.value;
  if (!who) return null;
  return (
    <header>
      <div class="bar">
        {who.memberships.length > 1 ? (
          <select aria-label={m.switchHousehold} value={h?.householdId} onChange={(e) => pickHousehold(e.currentTarget.value)}>
            {who.memberships.map((x) => (
              <option key={x.householdId} value={x.householdId}>
                {x.householdName}
              </option>
            ))}
          </select>
        ) : (
          <span class="brand">{h ? h.householdName : m.appName}</span>
        )}
        <span class="row">
          <a href="/settings" aria-current={path === '/settings' || path.startsWith('/settings/') ? 'page' : undefined}>
            {m.settings}
          </a>
          <button type="button" class="link" onClick={() => void signOut().then(() => route('/sign-in', true))}>
            {m.signOut}
          </button>
        </span>
      </div>
      {h && (
        <nav aria-label={m.mainMenu}>
          <NavLink href="/" here={path === '/' || path.startsWith('/week/')}>
            {m.week}
          </NavLink>
          <NavLink href="/list" here={path === '/list' || path.startsWith('/list/')}>
            {m.list}
          </NavLink>
          <NavLink href="/recipes" here={path.startsWith('/recipes')}>
            {m.recipes}
          </NavLink>
          <NavLink href="/pantry" here={path === '/pantry'}>
            {m.pantry}
          </NavLink>
          <NavLink href="/members" here={path === '/members'}>
            {m.members}
          </NavLink>
        </nav>
      )}
      <OfflineNote />
    </header>
  );
}

/** Every screen's frame: a link past the menu, the header, and the screen. */
export function Shell({ children }: { children: ComponentChildren }) {
  const m = t.value;
  return (
    <>
      <a class="skip" href="#main">
        {m.skipToContent}
      </a>
      <Header />
      {children}
      {me.value && <UndoBar />}
    </>
  );
}
