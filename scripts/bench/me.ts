/**
 * npm run bench [-- --seconds 10 --connections 10]
 * Throughput and p50/p99 latency of GET /api/v1/me with a session, against a bare node:http server answering a
 * fixed JSON body of the same size, measured in the same run over loopback; prints the ratio.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 10);
const connections = arg('connections', 10);

const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/targets.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
const line = await new Promise<string>((resolve, reject) => {
  createInterface({ input: child.stdout! }).once('line', resolve);
  child.once('exit', (code) => reject(new Error(`targets exited with ${code}`)));
});
const { appUrl, bareUrl, cookie } = JSON.parse(line) as { appUrl: string; bareUrl: string; cookie: string };

interface Figures {
  rps: number;
  /** autocannon records latency in whole milliseconds; the mean keeps the fraction. */
  mean: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(url: string, headers: Record<string, string>): Promise<Figures> {
  // A short warm-up first, so that JIT and connection set-up are not measured.
  await autocannon({ url, headers, connections, duration: 2 });
  const r = await autocannon({ url, headers, connections, duration: seconds });
  return { rps: r.requests.average, mean: r.latency.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
}

try {
  const bare = await measure(bareUrl, {});
  const me = await measure(`${appUrl}/api/v1/me`, { Cookie: cookie });
  const row = (name: string, f: Figures) =>
    `${name.padEnd(22)} ${f.rps.toFixed(0).padStart(8)} req/s   mean ${f.mean.toFixed(2).padStart(6)} ms   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms   non-2xx ${f.non2xx}`;
  console.log(`loopback, ${connections} connections, ${seconds} s each (after 2 s warm-up)`);
  console.log(row('bare node:http', bare));
  console.log(row('GET /api/v1/me', me));
  console.log(`ratio (me / bare): throughput ${(me.rps / bare.rps).toFixed(3)}, mean latency ${(me.mean / Math.max(bare.mean, 0.001)).toFixed(1)}x`);
  if (me.non2xx > 0) {
    console.error('GET /api/v1/me answered non-2xx during the run: the figures are not valid');
    process.exitCode = 1;
  }
} finally {
  child.kill('SIGTERM');
}
