// Not committed: profiles W10's list and plan only.
import { measure, spawnService, stopService } from './lib.js';
const { info, child } = await spawnService<{ appUrl: string; cookie: string; old: Record<string, string>; young: Record<string, string> }>('scripts/bench/w10-history.ts');
const headers = { cookie: info.cookie };
const which = (process.env['W10_KEY'] ?? 'list') as string;
await measure(info.appUrl + info.old[which], { headers, connections: 10, seconds: 2 });
await fetch(info.appUrl.replace(/\/$/, '') + '/__profile_start').catch(() => undefined);
for (const k of ['old', 'young'] as const) {
  const f = await measure(info.appUrl + (info as any)[k][which], { headers, connections: 10, seconds: Number(process.env['SECS'] ?? 5) });
  console.log(k, which, JSON.stringify(f));
}
const r = await fetch(info.appUrl + info.old[which], { headers: { ...headers, 'X-Diagnostics': '1' } });
console.log(r.headers.get('server-timing'), (await r.text()).length);
await stopService(child);
