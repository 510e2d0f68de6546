import type Koa from 'koa';
import type { VersionMap } from '../../config/config.js';
import { problems } from './problem.js';

const HEADER = /^(ios|android)\/(\d{1,6})\.(\d{1,6})\.(\d{1,6})$/;

const parts = (semver: string) => semver.split('.').map(Number) as [number, number, number];

function below(version: [number, number, number], floor: [number, number, number]): boolean {
  for (let i = 0; i < 3; i++) if (version[i] !== floor[i]) return version[i]! < floor[i]!;
  return false;
}

/**
 * `X-App-Version: ios/2.0.0` below that platform's floor answers 426 on every route but the exempt ones
 * (app/version and the health probes). No header, a malformed one, or an unknown platform is never gated.
 */
export function versionGate(floor: VersionMap, exemptPaths: ReadonlySet<string>): (ctx: Koa.Context) => void {
  return (ctx) => {
    // Node's own lower-case header; most requests (the web app's) send none.
    const header = ctx.req.headers['x-app-version'];
    if (header === undefined) return;
    const m = HEADER.exec((Array.isArray(header) ? header.join(', ') : header).trim());
    if (m && !exemptPaths.has(ctx.path)) {
      const platform = m[1] as keyof VersionMap;
      const min = floor[platform];
      if (min !== null && below([Number(m[2]), Number(m[3]), Number(m[4])], parts(min))) throw problems.appVersion(platform, min);
    }
  };
}
