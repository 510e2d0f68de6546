/**
 * W7: while 16 logins run, GET /api/v1/me's p99 stays within 2× its idle value.
 *   tsx scripts/bench/w7-login.ts --db sqlite|postgres --seconds S [--json] [--rate-fraction 0.5]
 *
 * The service runs in a child process (`--serve`), the load in this one. /me is sent open loop at a fixed rate
 * (each request leaves on schedule whatever the earlier answers do), a fraction (default half) of the closed-loop
 * saturation measured just before: busy, yet with room, so its p99 is the latency of one request rather than
 * queueing behind our own load. Idle seconds and seconds while 16 clients sign in back to back (right password,
 * one account each) alternate S times, so a neighbour's burst of CPU falls on both alike.
 *
 * Latencies come from our own clock, in fractional ms: autocannon's histogram keeps whole ms, and an idle /me
 * answers in about 1 ms, where that rounding alone makes a 2× ratio. autocannon's `overallRate` does not pace: it
 * sends each connection's quota for the second back to back, then waits, so its p99 is queueing behind the burst.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { announce, arg, benchDatabase, benchService, emit, measure, progress, spawnService, stopService, workloadArgs, type BenchRow, type Figures } from './lib.js';

const LOGIN_CLIENTS = 16;
const PASSWORD = 'w7 login bench password';
const emails = Array.from({ length: LOGIN_CLIENTS }, (_, k) => `w7-login-${k}@example.com`);

interface ServiceInfo {
  url: string;
  cookie: string;
}

async function drive(): Promise<void> {
  const { db, seconds, json } = workloadArgs();
  const fraction = arg('rate-fraction', 0.5);
  const { info, child } = await spawnService<ServiceInfo>(fileURLToPath(import.meta.url));
  try {
    const me = `${info.url}/api/v1/me`;
    const headers = { Cookie: info.cookie };
    // Saturation (closed loop, autocannon, after its 2 s warm-up) sets the paced rate.
    const saturation = await measure(me, { headers, connections: 10, seconds: Math.min(seconds, 3) });
    const rate = Math.max(50, Math.round(saturation.rps * fraction));
    progress(`W7 ${db}: /me saturates at ${saturation.rps.toFixed(0)} req/s; pacing it at ${rate} req/s`);
    await paced(me, headers, rate, 1); // warm-up at the paced rate

    const logins = startLogins(info.url);
    const idleRuns: Paced[] = [];
    const loadedRuns: Paced[] = [];
    for (let round = 0; round < Math.max(1, Math.round(seconds)); round++) {
      await logins.pause(); // every sign-in under way has answered: this second is idle
      idleRuns.push(await paced(me, headers, rate, 1));
      logins.resume();
      await sleep(250); // the 16 clients have their first sign-ins in
      loadedRuns.push(await paced(me, headers, rate, 1));
    }
    await logins.stop();
    const idle = merge(idleRuns);
    const loaded = merge(loadedRuns);
    const signIns = logins.within(loaded.intervals);
    progress(`W7 ${db}: idle p99 ${idle.figures.p99.toFixed(2)} ms, under logins ${loaded.figures.p99.toFixed(2)} ms; ${signIns.count} logins`);

    const ratio = loaded.figures.p99 / idle.figures.p99;
    const unexpected = idle.figures.unexpected + loaded.figures.unexpected;
    const problems = [
      ...(unexpected > 0 ? [`${unexpected} unexpected /me answers`] : []),
      ...(logins.failures() > 0 ? [`${logins.failures()} failed logins`] : []),
      ...(signIns.count === 0 ? ['no login answered while measured'] : []),
    ];
    const note =
      `/me open loop at ${rate} req/s (${fraction} of its ${saturation.rps.toFixed(0)} req/s saturation), ${Math.max(1, Math.round(seconds))} idle and loaded seconds alternating, ` +
      `fractional-ms latencies; ${LOGIN_CLIENTS} login clients: ${signIns.perSecond.toFixed(1)} logins/s, login p50 ${signIns.p50.toFixed(0)} ms` +
      (problems.length > 0 ? `; INVALID: ${problems.join(', ')}` : '');
    emit(
      [
        {
          workload: 'W7',
          db,
          subject: `GET /api/v1/me while ${LOGIN_CLIENTS} logins run`,
          baseline: 'GET /api/v1/me idle',
          subjectFigures: loaded.figures,
          baselineFigures: idle.figures,
          ratio,
          target: '≤ 2.0',
          pass: problems.length === 0 && ratio <= 2,
          note,
        } satisfies BenchRow,
      ],
      json,
    );
  } finally {
    await stopService(child);
  }
}

/** The p-th percentile (nearest rank) of unsorted samples. */
function pct(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One paced run: per-request latencies (ms), answers other than 200 or errors, and when it ran. */
interface Paced {
  latencies: number[];
  unexpected: number;
  start: number;
  end: number;
}

/** The figures of several runs taken as one. */
function merge(runs: readonly Paced[]): { figures: Figures; intervals: [number, number][] } {
  const latencies = runs.flatMap((r) => r.latencies);
  const seconds = runs.reduce((n, r) => n + (r.end - r.start) / 1000, 0);
  const mean = latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length);
  return {
    figures: { rps: latencies.length / seconds, mean, p50: pct(latencies, 50), p99: pct(latencies, 99), unexpected: runs.reduce((n, r) => n + r.unexpected, 0) },
    intervals: runs.map((r) => [r.start, r.end]),
  };
}

/**
 * GET `url` at `rate` requests a second for `seconds`, open loop: each request leaves at its scheduled time on a
 * keep-alive pool large enough that a slow answer never holds the next one back. Latency runs from the moment
 * the request is handed to node:http to the end of its answer.
 */
async function paced(url: string, headers: Record<string, string>, rate: number, seconds: number): Promise<Paced> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.max(1, Math.round(rate * seconds));
  const latencies: number[] = [];
  let unexpected = 0;
  let sent = 0;
  let settled = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const done = () => {
      if (++settled === total) resolve();
    };
    const fire = () => {
      const t0 = performance.now();
      http
        .get(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            if (res.statusCode !== 200) unexpected++;
            done();
          });
        })
        .on('error', () => {
          unexpected++;
          done();
        });
    };
    // Timers fire about every millisecond; each tick sends what has fallen due since the last one.
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (sent < due) {
        sent++;
        fire();
      }
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
  const end = performance.now();
  agent.destroy();
  return { latencies, unexpected, start, end };
}

/**
 * LOGIN_CLIENTS loops, each signing in and awaiting the answer before the next. `pause` resolves once every loop
 * has its answer and waits; `resume` lets them go on.
 */
function startLogins(base: string) {
  let running = true;
  let gate: Promise<void> | null = null;
  let open = () => {};
  let parked = 0;
  let allParked = () => {};
  let failures = 0;
  const done: { at: number; ms: number }[] = [];
  const loop = async (email: string) => {
    const body = JSON.stringify({ email, password: PASSWORD });
    while (running) {
      if (gate) {
        if (++parked === LOGIN_CLIENTS) allParked();
        await gate;
        continue;
      }
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
      } catch {
        failures++;
      }
      const at = performance.now();
      done.push({ at, ms: at - t0 });
    }
  };
  const loops = emails.map(loop);
  return {
    pause(): Promise<void> {
      parked = 0;
      const all = new Promise<void>((resolve) => (allParked = resolve));
      gate = new Promise<void>((resolve) => (open = resolve));
      return all;
    },
    resume() {
      gate = null;
      open();
    },
    failures: () => failures,
    /** Sign-ins that answered within the given spans: how many a second, and their median time. */
    within(intervals: readonly [number, number][]) {
      const inside = done.filter((d) => intervals.some(([a, b]) => d.at >= a && d.at <= b));
      const seconds = intervals.reduce((n, [a, b]) => n + (b - a) / 1000, 0);
      return { perSecond: inside.length / seconds, count: inside.length, p50: pct(inside.map((d) => d.ms), 50) };
    },
    async stop() {
      running = false;
      this.resume();
      await Promise.all(loops);
    },
  };
}

if (process.argv.includes('--serve')) {
  const s = await benchService('w7', benchDatabase());
  // One account per login client, so no address's failure counter or lockout is shared between clients.
  for (const email of emails) await s.call('POST', '/api/v1/auth/register', null, { email, password: PASSWORD, displayName: 'W7' });
  announce({ url: s.app.url, cookie: s.cookie } satisfies ServiceInfo, s.app.stop);
} else {
  await drive();
}
