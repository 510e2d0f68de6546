import * as v from 'valibot';
import type { TimeZoneCatalog } from '../../../ports/time-zones.js';
import { problems } from '../problem.js';
import { defineRoute, type AnyRoute } from '../route.js';
import type { RouteSettings } from '../deps.js';

const HealthResponse = v.object({ status: v.literal('ok'), version: v.string(), buildId: v.string() });
const PlatformVersion = v.object({ minimumVersion: v.nullable(v.string()), latestVersion: v.nullable(v.string()) });
const AppVersionResponse = v.object({ ios: PlatformVersion, android: PlatformVersion });
const TimeZonesResponse = v.object({ timeZones: v.array(v.string()) });

export const ROBOTS_TXT = ['User-agent: *', 'Content-Signal: search=no, ai-input=no, ai-train=no', 'Disallow: /', ''].join('\n');

export function systemRoutes(settings: RouteSettings, timeZones: TimeZoneCatalog): AnyRoute[] {
  const health = { status: 'ok' as const, version: settings.version, buildId: settings.buildId };
  return [
    defineRoute({
      method: 'GET',
      path: '/health',
      operationId: 'health',
      summary: 'Health of the answering process',
      description: 'Always ok while the process answers, with its version and build id. Never rate-limited.',
      tag: 'Application and health',
      auth: 'public',
      rateLimit: 'none',
      versionGated: false,
      responses: { 200: { description: 'The process answers', schema: HealthResponse } },
      handler: (ctx) => {
        ctx.body = health;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/health/live',
      operationId: 'healthLive',
      summary: 'Liveness probe',
      tag: 'Application and health',
      auth: 'public',
      rateLimit: 'none',
      versionGated: false,
      responses: { 200: { description: 'The process is alive', schema: HealthResponse } },
      handler: (ctx) => {
        ctx.body = health;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/health/ready',
      operationId: 'healthReady',
      summary: 'Readiness probe',
      description: '200 with no body when the database answers and every migration of this build is applied; 503 problem otherwise.',
      tag: 'Application and health',
      auth: 'public',
      rateLimit: 'none',
      versionGated: false,
      responses: { 200: { description: 'Ready (no body)' }, 503: { description: 'not_ready: the database is unreachable or migrations are pending' } },
      problems: { not_ready: 503 },
      handler: async (ctx) => {
        const r = await settings.readiness();
        if (!r.ready) throw problems.notReady(r.reason);
        ctx.status = 200;
        ctx.body = '';
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/robots.txt',
      operationId: 'robots',
      summary: 'robots.txt: disallows every path, content signals no',
      tag: 'Application and health',
      auth: 'public',
      rateLimit: 'anonymous-per-ip',
      responses: { 200: { description: 'Disallow all', contentType: 'text/plain' } },
      handler: (ctx) => {
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = ROBOTS_TXT;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/app/version',
      operationId: 'appVersion',
      summary: 'Minimum and latest app version per platform',
      description: 'Never blocked by the version gate. Both fields null for a platform means no floor. Cached 60 seconds.',
      tag: 'Application and health',
      auth: 'public',
      rateLimit: 'anonymous-per-ip',
      versionGated: false,
      responses: { 200: { description: 'Floors per platform', schema: AppVersionResponse, headers: { 'Cache-Control': 'public, max-age=60' } } },
      handler: (ctx) => {
        ctx.set('Cache-Control', 'public, max-age=60');
        ctx.body = {
          ios: { minimumVersion: settings.appVersionFloor.ios, latestVersion: settings.appVersionLatest.ios },
          android: { minimumVersion: settings.appVersionFloor.android, latestVersion: settings.appVersionLatest.android },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/time-zones',
      operationId: 'timeZones',
      summary: 'Every IANA time-zone id the server knows',
      description: 'Exactly what household create and update accept as timeZoneId. Unsorted. Cached one day.',
      tag: 'Application and health',
      auth: 'session',
      rateLimit: 'backstop',
      responses: { 200: { description: 'Known zones', schema: TimeZonesResponse, headers: { 'Cache-Control': 'private, max-age=86400' } } },
      handler: (ctx) => {
        ctx.set('Cache-Control', 'private, max-age=86400');
        ctx.body = { timeZones: timeZones.ids() };
      },
    }),
  ];
}
