import { useEffect } from 'preact/hooks';
import { whenSignedOut } from './api';
import { t } from './i18n';
import { Register, SignIn } from './pages/auth';
import { AcceptInvite, Members } from './pages/members';
import { ConfirmEmail, ConfirmEmailChange, ForgotPassword, ResetPassword } from './pages/recovery';
import { NewHousehold } from './pages/household';
import { List } from './pages/list';
import { Recipes } from './pages/recipes';
import { Week } from './pages/week';
import { location, navigate } from './router';
import { household, loadMe, me, pickHousehold, signOut } from './state';

/** Pages anyone may open; every other page wants a signed-in person. */
const PUBLIC = new Set(['/sign-in', '/register', '/confirm-email', '/confirm-email-change', '/forgot-password', '/reset-password', '/invite']);

whenSignedOut(() => {
  me.value = null;
  const here = window.location.pathname + window.location.search;
  if (!PUBLIC.has(window.location.pathname)) navigate(`/sign-in?next=${encodeURIComponent(here)}`, true);
});

const today = () => new Date().toISOString().slice(0, 10);

export function App() {
  useEffect(() => void loadMe(), []);
  const m = t.value;
  const path = location.value.pathname;
  const who = me.value;
  const h = household.value;
  useEffect(() => {
    if (who === null && !PUBLIC.has(path)) navigate(`/sign-in?next=${encodeURIComponent(path + location.value.search)}`, true);
  }, [who, path]);
  useEffect(() => {
    document.title = m.appName;
  }, [m]);
  if (who === undefined) return <p class="loading">{m.loading}</p>;
  let page;
  if (path === '/sign-in') page = <SignIn />;
  else if (path === '/register') page = <Register />;
  else if (path === '/confirm-email') page = <ConfirmEmail />;
  else if (path === '/confirm-email-change') page = <ConfirmEmailChange />;
  else if (path === '/forgot-password') page = <ForgotPassword />;
  else if (path === '/reset-password') page = <ResetPassword />;
  else if (path === '/invite') page = <AcceptInvite />;
  else if (!who) page = null;
  else if (!h) page = <NewHousehold />;
  else if (path === '/recipes') page = <Recipes householdId={h.householdId} />;
  else if (path === '/members') page = <Members householdId={h.householdId} role={h.role} />;
  else if (path.startsWith('/list/')) page = <List householdId={h.householdId} planId={path.slice('/list/'.length)} />;
  else page = <Week householdId={h.householdId} date={/^\/week\/(\d{4}-\d{2}-\d{2})$/.exec(path)?.[1] ?? today()} />;
  return (
    <>
      <a class="skip" href="#main">
        {m.appName}
      </a>
      {who && (
        <header>
          <nav aria-label={m.appName}>
            <a href="/">{m.week}</a>
            <a href="/recipes">{m.recipes}</a>
            <a href="/members">{m.members}</a>
            {who.memberships.length > 1 && (
              <select aria-label={m.switchHousehold} value={h?.householdId} onChange={(e) => pickHousehold(e.currentTarget.value)}>
                {who.memberships.map((x) => (
                  <option key={x.householdId} value={x.householdId}>
                    {x.householdName}
                  </option>
                ))}
              </select>
            )}
            <button
              type="button"
              class="link"
              onClick={() => void signOut().then(() => navigate('/sign-in', true))}
            >
              {m.signOut}
            </button>
          </nav>
        </header>
      )}
      {page}
    </>
  );
}
