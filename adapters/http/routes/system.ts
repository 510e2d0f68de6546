import * as v from 'valibot';
import type { TimeZoneCatalog } from '../../../ports/time-zones.js';
import { problems } from '../problem.js';
import { answerEmpty, mount, resource, PUBLIC_PER_IP } from '../route.js';
import type { RouteSettings } from '../deps.js';

const HealthResponse = v.object({ status: v.literal('ok'), version: v.string(), buildId: v.string() });
const PlatformVersion = v.object({ minimumVersion: v.nullable(v.string()), latestVersion: v.nullable(v.string()) });
const AppVersionResponse = v.object({ ios: PlatformVersion, android: PlatformVersion });
const TimeZonesResponse = v.object({ timeZones: v.array(v.string()) });

export const ROBOTS_TXT = ['User-agent: *', 'Content-Signal: search=no, ai-input=no, ai-train=no', 'Disallow: /', ''].join('\n');

type SystemDeps = { readonly settings: RouteSettings; readonly timeZones: TimeZoneCatalog };
const { handledRoute } = resource<SystemDeps>('Application and health');

/** The health probes: never rate-limited, never turned away by the version gate. */
const probe = { auth: 'public', rateLimit: 'none', versionGated: false } as const;
const healthOf = ({ settings }: SystemDeps) => ({ status: 'ok' as const, version: settings.version, buildId: settings.buildId });

/** A probe that answers while the process does: health and liveness say the same, each in its own words. */
const processProbe = (path: string, operationId: string, texts: { summary: string; description?: string; answer: string }) =>
  handledRoute({
    method: 'GET',
    path,
    operationId,
    summary: texts.summary,
    ...(texts.description === undefined ? {} : { description: texts.description }),
    ...probe,
    responses: { 200: { description: texts.answer, schema: HealthResponse } },
    handle: (ctx, { deps }) => {
      ctx.body = healthOf(deps);
    },
  });

const healthRoute = processProbe('/health', 'health', {
  summary: 'Health of the answering process',
  description: 'Always ok while the process answers, with its version and build id. Never rate-limited.',
  answer: 'The process answers',
});
const healthLiveRoute = processProbe('/health/live', 'healthLive', { summary: 'Liveness probe', answer: 'The process is alive' });

const healthReadyRoute = handledRoute({
  method: 'GET',
  path: '/health/ready',
  operationId: 'healthReady',
  summary: 'Readiness probe',
  description: '200 with no body when the database answers and every migration of this build is applied; 503 problem otherwise.',
  ...probe,
  responses: { 200: { description: 'Ready (no body)' }, 503: { description: 'not_ready: the database is unreachable or migrations are pending' } },
  problems: { not_ready: 503 },
  handle: async (ctx, { deps }) => {
    const r = await deps.settings.readiness();
    if (!r.ready) throw problems.notReady(r.reason);
    answerEmpty(ctx);
  },
});

const robotsRoute = handledRoute({
  method: 'GET',
  path: '/robots.txt',
  operationId: 'robots',
  summary: 'robots.txt: disallows every path, content signals no',
  ...PUBLIC_PER_IP,
  responses: { 200: { description: 'Disallow all', contentType: 'text/plain' } },
  handle: (ctx) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = ROBOTS_TXT;
  },
});

const appVersionRoute = handledRoute({
  method: 'GET',
  path: '/api/v1/app/version',
  operationId: 'appVersion',
  summary: 'Minimum and latest app version per platform',
  description: 'Never blocked by the version gate. Both fields null for a platform means no floor. Cached 60 seconds.',
  ...PUBLIC_PER_IP,
  versionGated: false,
  responses: { 200: { description: 'Floors per platform', schema: AppVersionResponse, headers: { 'Cache-Control': 'public, max-age=60' } } },
  handle: (ctx, { deps: { settings } }) => {
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = {
      ios: { minimumVersion: settings.appVersionFloor.ios, latestVersion: settings.appVersionLatest.ios },
      android: { minimumVersion: settings.appVersionFloor.android, latestVersion: settings.appVersionLatest.android },
    };
  },
});

const timeZonesRoute = handledRoute({
  method: 'GET',
  path: '/api/v1/time-zones',
  operationId: 'timeZones',
  summary: 'Every IANA time-zone id the server knows',
  description: 'Exactly what household create and update accept as timeZoneId. Unsorted. Cached one day.',
  responses: { 200: { description: 'Known zones', schema: TimeZonesResponse, headers: { 'Cache-Control': 'private, max-age=86400' } } },
  handle: (ctx, { deps }) => {
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.body = { timeZones: deps.timeZones.ids() };
  },
});

export const systemRoutes = (settings: RouteSettings, timeZones: TimeZoneCatalog) =>
  mount({ settings, timeZones }, [healthRoute, healthLiveRoute, healthReadyRoute, robotsRoute, appVersionRoute, timeZonesRoute]);
