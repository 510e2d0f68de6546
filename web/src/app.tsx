import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { whenSignedOut } from './api';
import { t } from './i18n';
import { Register, SignIn } from './pages/auth';
import { List } from './pages/list';
import { Week } from './pages/week';
import { location, navigate } from './router';
import { forgetPerson, household, householdInfo, householdProblem, loadHousehold, loadMe, me, pickHousehold, signOut, today } from './state';
import { Page, Problem, lazy } from './ui';
// Opens the live stream of changes while someone is signed in.
import './live';
import { online, waiting } from './offline';

// The week and the list come with the first load; every other screen when it is first opened.
const Members = lazy(() => import('./pages/members').then((p) => p.Members));
const AcceptInvite = lazy(() => import('./pages/members').then((p) => p.AcceptInvite));
const ConfirmEmail = lazy(() => import('./pages/recovery').then((p) => p.ConfirmEmail));
const ConfirmEmailChange = lazy(() => import('./pages/recovery').then((p) => p.ConfirmEmailChange));
const ForgotPassword = lazy(() => import('./pages/recovery').then((p) => p.ForgotPassword));
const ResetPassword = lazy(() => import('./pages/recovery').then((p) => p.ResetPassword));
const NewHousehold = lazy(() => import('./pages/household').then((p) => p.NewHousehold));
const Recipes = lazy(() => import('./pages/recipes').then((p) => p.Recipes));
const RecipeEdit = lazy(() => import('./pages/recipe-edit').then((p) => p.RecipeEdit));
const Pantry = lazy(() => import('./pages/pantry').then((p) => p.Pantry));
const Settings = lazy(() => import('./pages/settings').then((p) => p.Settings));
const DinnerPrices = lazy(() => import('./pages/extras').then((p) => p.DinnerPrices));
const Waitlist = lazy(() => import('./pages/extras').then((p) => p.Waitlist));
const Feedback = lazy(() => import('./pages/extras').then((p) => p.Feedback));
const Receipts = lazy(() => import('./pages/receipts').then((p) => p.ReceiptsPage));

/** Pages anyone may open; every other page wants a signed-in person. */
const PUBLIC = new Set(['/sign-in', '/register', '/confirm-email', '/confirm-email-change', '/forgot-password', '/reset-password', '/invite', '/dinner-prices', '/waitlist']);

// A sign-in that ended elsewhere is forgotten here as Sign out forgets it (the live stream's end does the same).
whenSignedOut(() => {
  void forgetPerson('elsewhere');
  const here = window.location.pathname + window.location.search;
  if (!PUBLIC.has(window.location.pathname)) navigate(`/sign-in?next=${encodeURIComponent(here)}`, true);
});

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
  else if (path === '/dinner-prices') page = <DinnerPrices />;
  else if (path === '/waitlist') page = <Waitlist />;
  else if (path === '/feedback' && who) page = <Feedback householdId={h?.householdId ?? null} />;
  else if (!who) page = null;
  else if (!h) page = <NewHousehold />;
  else if (!householdInfo.value && householdProblem.value)
    page = (
      <Page title={m.appName}>
        <Problem error={householdProblem.value} />
        <button type="button" onClick={() => void loadHousehold()}>
          {m.tryAgain}
        </button>
      </Page>
    );
  else if (path === '/recipes') page = <Recipes householdId={h.householdId} role={h.role} />;
  else if (path === '/recipes/new') page = <RecipeEdit householdId={h.householdId} recipeId={null} role={h.role} />;
  else if (path.startsWith('/recipes/')) page = <RecipeEdit householdId={h.householdId} recipeId={path.slice('/recipes/'.length)} role={h.role} />;
  else if (path === '/receipts') page = <Receipts householdId={h.householdId} />;
  else if (path === '/pantry') page = <Pantry householdId={h.householdId} role={h.role} />;
  else if (path === '/settings') page = <Settings householdId={h.householdId} />;
  else if (path === '/members') page = <Members householdId={h.householdId} role={h.role} />;
  else if (path.startsWith('/list/')) page = <List householdId={h.householdId} planId={path.slice('/list/'.length)} />;
  else {
    // Screens do not wait for the household to be read, but "this week" does: today is on the household's clock.
    const date = /^\/week\/(\d{4}-\d{2}-\d{2})$/.exec(path)?.[1] ?? (householdInfo.value ? today() : null);
    page = date ? <Week householdId={h.householdId} date={date} /> : <p class="loading">{m.loading}</p>;
  }
  return (
    <>
      <a class="skip" href="#main">
        {m.skipToContent}
      </a>
      {who && (
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
              <a href="/settings" aria-current={path === '/settings' ? 'page' : undefined}>
                {m.settings}
              </a>
              <button type="button" class="link" onClick={() => void signOut().then(() => navigate('/sign-in', true))}>
                {m.signOut}
              </button>
            </span>
          </div>
          {h && (
            <nav aria-label={m.mainMenu}>
              <NavLink href="/" here={path === '/' || path.startsWith('/week/') || path.startsWith('/list/')}>
                {m.week}
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
      )}
      {page}
    </>
  );
}
