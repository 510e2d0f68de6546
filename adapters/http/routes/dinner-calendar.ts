import * as v from 'valibot';
import {
  DEFAULT_COOKING_MINUTES,
  DINNER_CALENDAR_DAYS_AHEAD,
  DINNER_CALENDAR_DAYS_BACK,
  dinnerCalendarOf,
  readDinnerCalendarLink,
  resetDinnerCalendarLink,
  turnOffDinnerCalendarLink,
  type DinnerCalendarLinkView,
} from '../../../core/calendar/dinner-calendar.js';
import { dinnerCalendarIcs } from '../dinner-calendar-ics.js';
import { callerAndHousehold, mount, noContent, resource, PUBLIC_PER_IP } from '../route.js';
import { Uuid } from '../schemas.js';
import type { RouteSettings, ServiceDeps } from '../deps.js';

const DinnerCalendarLinkResponse = v.object({ url: v.nullable(v.string()), webcalUrl: v.nullable(v.string()) });

/** Subscribing clients poll; five minutes spares the database without hiding a changed dish for long. */
const ICS_CACHE_CONTROL = 'private, max-age=300';

const LINK_DOC =
  'url is {PUBLIC_BASE_URL}/api/v1/calendar/{token}.ics and webcalUrl the same with scheme webcal; both null while the ' +
  'link is turned off. The token is 256 random bits (base64url). It is a capability the household reads back, so it ' +
  'is stored as handed out (not hashed) and the feed finds the household through a unique index on it. The link is ' +
  'active from the household\'s creation: its token is drawn the first time a member reads the link (nobody can hold ' +
  'a token before that), once, however many read at the same time.';

const FEED_DOC =
  `One VEVENT per day cooked at home that has a dish, from ${DINNER_CALENDAR_DAYS_BACK} days back to ${DINNER_CALENDAR_DAYS_AHEAD} days ahead of today ` +
  'in the household\'s time zone; days an EatingOut or Travel event closes, and days without a dish, have none. ' +
  'The event runs from the start of cooking to serving, in UTC. Serving is the earliest servingTime of the day\'s ' +
  'events, else the household\'s dinnerTime. Cooking takes the recipe\'s totalMinutes, else its activeMinutes, else ' +
  `the smallest availableCookingMinutes of the day's events, else ${DEFAULT_COOKING_MINUTES} minutes. SUMMARY is the dish's title; ` +
  'UID is dinner-{date}@{householdId}, stable when the dish changes. X-WR-CALNAME is the household\'s name. ' +
  'An unknown, replaced, turned-off or malformed token answers 404 calendar_not_found alike. Counted per client IP in ' +
  'the anonymous-per-ip class (a calendar service fetches many households\' feeds from few addresses). ' +
  `Cache-Control: ${ICS_CACHE_CONTROL}.`;

type DinnerCalendarRouteDeps = ServiceDeps & { readonly settings: Pick<RouteSettings, 'publicBaseUrl'> };
const { handledRoute, householdRoute } = resource<DinnerCalendarRouteDeps>('Dinner calendar');
const base = '/api/v1/households/{householdId}/dinner-calendar';

const toLink = (link: DinnerCalendarLinkView, { deps }: { readonly deps: DinnerCalendarRouteDeps }): v.InferOutput<typeof DinnerCalendarLinkResponse> => {
  if (link.token === null) return { url: null, webcalUrl: null };
  const url = `${deps.settings.publicBaseUrl}/api/v1/calendar/${link.token}.ics`;
  return { url, webcalUrl: url.replace(/^https?:/, 'webcal:') };
};

const getDinnerCalendarLinkRoute = householdRoute({
  method: 'GET',
  path: base,
  operationId: 'getDinnerCalendarLink',
  summary: 'The household\'s dinner calendar link',
  description: `Any member, Junior included. ${LINK_DOC}`,
  responses: { 200: { description: 'The link (both null while turned off)', schema: DinnerCalendarLinkResponse } },
  run: callerAndHousehold(readDinnerCalendarLink),
  reply: toLink,
});

const resetDinnerCalendarLinkRoute = householdRoute({
  method: 'POST',
  path: `${base}/reset`,
  operationId: 'resetDinnerCalendarLink',
  summary: 'A new dinner calendar link (adults only)',
  description: `Draws a new token: the old address answers 404 from now on. A turned-off link is turned on again by this. ${LINK_DOC}`,
  responses: { 200: { description: 'The new link', schema: DinnerCalendarLinkResponse } },
  errors: ['adults-only'],
  run: callerAndHousehold(resetDinnerCalendarLink),
  reply: toLink,
});

const turnOffDinnerCalendarLinkRoute = householdRoute({
  method: 'DELETE',
  path: base,
  operationId: 'turnOffDinnerCalendarLink',
  summary: 'Turn the dinner calendar link off (adults only)',
  description: 'The address answers 404 from now on, and the link reads as null, until an adult resets it. Idempotent.',
  ...noContent('Turned off'),
  errors: ['adults-only'],
  run: callerAndHousehold(turnOffDinnerCalendarLink),
});

const dinnerCalendarFeedRoute = handledRoute({
  method: 'GET',
  path: '/api/v1/calendar/{token}.ics',
  operationId: 'dinnerCalendarFeed',
  summary: 'The household\'s dinners as an iCalendar feed (Public: the token is the proof)',
  description: FEED_DOC,
  ...PUBLIC_PER_IP,
  // The path parameter is checked by the use case: a malformed token answers 404 like an unknown one, not 400.
  params: v.object({ token: v.string() }),
  responses: {
    200: { description: 'iCalendar (RFC 5545) text', contentType: 'text/calendar', headers: { 'Cache-Control': ICS_CACHE_CONTROL } },
  },
  errors: ['dinner-calendar-not-found'],
  handle: async (ctx, { deps, params, refuse }) => {
    const result = await dinnerCalendarOf(deps, params.token);
    if (!result.ok) throw refuse(result.error);
    ctx.set('Cache-Control', ICS_CACHE_CONTROL);
    ctx.set('X-Robots-Tag', 'noindex');
    ctx.set('Content-Disposition', 'inline; filename="dinners.ics"');
    ctx.type = 'text/calendar; charset=utf-8';
    ctx.body = dinnerCalendarIcs(result.value);
  },
});

export const dinnerCalendarRoutes = (deps: ServiceDeps, settings: Pick<RouteSettings, 'publicBaseUrl'>) =>
  mount<DinnerCalendarRouteDeps>({ ...deps, settings }, [getDinnerCalendarLinkRoute, resetDinnerCalendarLinkRoute, turnOffDinnerCalendarLinkRoute, dinnerCalendarFeedRoute]);
