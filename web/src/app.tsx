import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { whenSignedOut, type Me } from './api';
import { t } from './i18n';
import { forgetPerson, household, householdInfo, householdProblem, loadHousehold, me, today } from './state';
import { Page, Problem, screen } from './ui';
import { Shell } from './shell';
// The week and the list, where most visits start, come with the app's own code: a screen fetched on its own would
// be asked for only once the app's code has run, and a cheap phone would wait for it before reading the week or list.
import { CurrentList } from './screens/shopping/current-list';
import { ShoppingList } from './screens/shopping/shopping-list';
import { Week } from './screens/week/week';
// Opens the live stream of changes while someone is signed in.
import './live';

// Every other screen is fetched the first time it opens.
const SignIn = screen(() => import('./screens/auth/auth').then((s) => s.SignIn));
const Register = screen(() => import('./screens/auth/auth').then((s) => s.Register));
const ConfirmEmail = screen(() => import('./screens/recovery/recovery').then((s) => s.ConfirmEmail));
const ConfirmEmailChange = screen(() => import('./screens/recovery/recovery').then((s) => s.ConfirmEmailChange));
const ForgotPassword = screen(() => import('./screens/recovery/recovery').then((s) => s.ForgotPassword));
const ResetPassword = screen(() => import('./screens/recovery/recovery').then((s) => s.ResetPassword));
const AcceptInvite = screen(() => import('./screens/members/members').then((s) => s.AcceptInvite));
const DinnerPrices = screen(() => import('./screens/dinner-prices/dinner-prices').then((s) => s.DinnerPrices));
const Waitlist = screen(() => import('./screens/waitlist/waitlist').then((s) => s.Waitlist));
const Feedback = screen(() => import('./screens/feedback/feedback').then((s) => s.Feedback));
const NewHousehold = screen(() => import('./screens/new-household/new-household').then((s) => s.NewHousehold));
const Recipes = screen(() => import('./screens/recipes/recipes').then((s) => s.Recipes));
const RecipeEdit = screen(() => import('./screens/recipe/recipe-edit').then((s) => s.RecipeEdit));
const RecipeScreen = screen(() => import('./screens/recipe/recipe-view').then((s) => s.RecipeScreen));
const CookView = screen(() => import('./screens/recipe/cook-view').then((s) => s.CookView));
const Receipts = screen(() => import('./screens/receipts/receipts').then((s) => s.Receipts));
const Pantry = screen(() => import('./screens/pantry/pantry').then((s) => s.Pantry));
const Settings = screen(() => import('./screens/settings/settings').then((s) => s.Settings));
const Members = screen(() => import('./screens/members/members').then((s) => s.Members));

/** Screens anyone may open; every other screen wants a signed-in person. */
const PUBLIC = new Set(['/sign-in', '/register', '/confirm-email', '/confirm-email-change', '/forgot-password', '/reset-password', '/invite', '/dinner-prices', '/waitlist']);

// A sign-in that ended elsewhere (a 401 on any call, the app's first read included) is forgotten here as Sign out
// forgets it; SignInFirst then opens the sign-in screen.
whenSignedOut(() => void forgetPerson('elsewhere'));

type Membership = Me['memberships'][number];

/**
 * A screen of the open household: shown once someone is signed in and a household is open (the first-run screen
 * makes one when there is none), and the household could be read or is being read.
 */
function Member({ children }: { children: (h: Membership) => ComponentChildren }) {
  const m = t.value;
  const h = household.value;
  if (!me.value) return null;
  if (!h) return <NewHousehold />;
  if (!householdInfo.value && householdProblem.value)
    return (
      <Page title={m.appName}>
        <Problem error={householdProblem.value} />
        <button type="button" onClick={() => void loadHousehold()}>
          {m.tryAgain}
        </button>
      </Page>
    );
  return <>{children(h)}</>;
}

/** The week holding a date; "this week" waits for the household, whose clock says what today is. */
function WeekRoute({ date }: { date?: string }) {
  return (
    <Member>
      {(h) => {
        const day = date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : householdInfo.value ? today() : null;
        return day ? <Week householdId={h.householdId} date={day} /> : <p class="loading">{t.value.loading}</p>;
      }}
    </Member>
  );
}

const ListRoute = ({ planId }: { planId: string }) => <Member>{(h) => <ShoppingList householdId={h.householdId} planId={planId} />}</Member>;
/** The menu's list: the week holding today, whichever plan that is. */
const CurrentListRoute = () => <Member>{(h) => <CurrentList householdId={h.householdId} />}</Member>;
const RecipesRoute = () => <Member>{(h) => <Recipes householdId={h.householdId} role={h.role} />}</Member>;
/** The recipe form: a new recipe (/recipes/new), or a saved one to change (/recipes/:recipeId/edit). */
const RecipeRoute = ({ recipeId }: { recipeId?: string }) => (
  <Member>{(h) => <RecipeEdit key={recipeId ?? 'new'} householdId={h.householdId} recipeId={recipeId ?? null} role={h.role} />}</Member>
);
/** A recipe opens to read, for everyone; its cooking view is one step further. */
const RecipeReadRoute = ({ recipeId }: { recipeId: string }) => <Member>{(h) => <RecipeScreen key={recipeId} householdId={h.householdId} recipeId={recipeId} role={h.role} />}</Member>;
const CookRoute = ({ recipeId }: { recipeId: string }) => <Member>{(h) => <CookView key={recipeId} householdId={h.householdId} recipeId={recipeId} />}</Member>;
const ReceiptsRoute = () => <Member>{(h) => <Receipts householdId={h.householdId} />}</Member>;
const PantryRoute = () => <Member>{(h) => <Pantry householdId={h.householdId} role={h.role} />}</Member>;
/** The settings' list (/settings), or one of its pages (/settings/me, /settings/household, …). */
const SettingsRoute = ({ section }: { section?: string }) => <Member>{(h) => <Settings householdId={h.householdId} section={section} />}</Member>;
const MembersRoute = () => <Member>{(h) => <Members householdId={h.householdId} role={h.role} />}</Member>;
const FeedbackRoute = () => (me.value ? <Feedback householdId={household.value?.householdId ?? null} /> : null);

/** Someone who is not signed in, on a screen that wants them: to the sign-in screen, and back here after it. */
function SignInFirst() {
  const { path, url, route } = useLocation();
  const who = me.value;
  useEffect(() => {
    if (who === null && !PUBLIC.has(path)) route(`/sign-in?next=${encodeURIComponent(url)}`, true);
  }, [who, path]);
  return null;
}

function Screens() {
  const m = t.value;
  useEffect(() => {
    document.title = m.appName;
  }, [m]);
  if (me.value === undefined) return <p class="loading">{m.loading}</p>;
  return (
    <Shell>
      <SignInFirst />
      <Router onRouteChange={() => window.scrollTo(0, 0)}>
        <Route path="/sign-in" component={SignIn} />
        <Route path="/register" component={Register} />
        <Route path="/confirm-email" component={ConfirmEmail} />
        <Route path="/confirm-email-change" component={ConfirmEmailChange} />
        <Route path="/forgot-password" component={ForgotPassword} />
        <Route path="/reset-password" component={ResetPassword} />
        <Route path="/invite" component={AcceptInvite} />
        <Route path="/dinner-prices" component={DinnerPrices} />
        <Route path="/waitlist" component={Waitlist} />
        <Route path="/feedback" component={FeedbackRoute} />
        <Route path="/recipes" component={RecipesRoute} />
        <Route path="/recipes/new" component={RecipeRoute} />
        <Route path="/recipes/:recipeId" component={RecipeReadRoute} />
        <Route path="/recipes/:recipeId/edit" component={RecipeRoute} />
        <Route path="/recipes/:recipeId/cook" component={CookRoute} />
        <Route path="/receipts" component={ReceiptsRoute} />
        <Route path="/pantry" component={PantryRoute} />
        <Route path="/settings" component={SettingsRoute} />
        <Route path="/settings/:section" component={SettingsRoute} />
        <Route path="/members" component={MembersRoute} />
        <Route path="/list" component={CurrentListRoute} />
        <Route path="/list/:planId" component={ListRoute} />
        <Route path="/week/:date" component={WeekRoute} />
        <Route default component={WeekRoute} />
      </Router>
    </Shell>
  );
}

/** A fault in a screen's code: said plainly, with a way back, instead of an empty page. */
function Broken() {
  const m = t.value;
  return (
    <Page title={m.appName}>
      <Problem error={{ status: 500 }} />
      <button type="button" onClick={() => window.location.assign('/')}>
        {m.tryAgain}
      </button>
    </Page>
  );
}

/** The whole app: the address picks the screen (links within the app move without a page load; the API's do not). */
export function App() {
  const [fault, setFault] = useState<unknown>(null);
  return (
    <LocationProvider scope={/^\/(?!api\/|health)/}>
      <ErrorBoundary onError={setFault}>{fault ? <Broken /> : <Screens />}</ErrorBoundary>
    </LocationProvider>
  );
}
