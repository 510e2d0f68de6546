/**
 * npm run bench:me [-- --seconds 10 --connections 10]
 * Throughput and latency of GET /api/v1/me with a session, against a bare node:http server answering a fixed JSON
 * body of the same size, measured in the same run over loopback; prints the ratio.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { arg, measure, report } from './lib.js';

const seconds = arg('seconds', 10);
const connections = arg('connections', 10);

// targets.ts serves both servers; it is not a --serve script, so it is started here directly.
const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/targets.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
const line = await new Promise<string>((resolve, reject) => {
  createInterface({ input: child.stdout! }).once('line', resolve);
  child.once('exit', (code) => reject(new Error(`targets exited with ${code}`)));
});
const { appUrl, bareUrl, cookie } = JSON.parse(line) as { appUrl: string; bareUrl: string; cookie: string };

try {
  const bare = await measure(bareUrl, { connections, seconds });
  const me = await measure(`${appUrl}/api/v1/me`, { headers: { Cookie: cookie }, connections, seconds });
  console.log(`loopback, ${connections} connections, ${seconds} s each (after 2 s warm-up)`);
  report([
    ['bare node:http', bare],
    ['GET /api/v1/me', me],
  ]);
  console.log(`ratio (me / bare): throughput ${(me.rps / bare.rps).toFixed(3)}, mean latency ${(me.mean / Math.max(bare.mean, 0.001)).toFixed(1)}x`);
} finally {
  child.kill('SIGTERM');
}
