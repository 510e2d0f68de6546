/**
 * The real entry point (`node --import tsx bootstrap/main.ts`) as a child process, for the tests that need a
 * process of its own: start-up and shutdown (test/process.test.ts), kill -9 (test/faults) and two processes on one
 * database (test/cluster).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** The JSON log lines written on stdout so far. */
  readonly lines: Record<string, unknown>[];
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exited: Promise<Exit>;
  /** Resolves with the first log line (already written or to come) that `match` accepts; rejects if the process exits first. */
  logLine(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts the entry point (or another of bootstrap/, with its arguments: `['bootstrap/run-job.ts', name]`) with only
 * `env` and what a shell needs (PATH, HOME...), never the test runner's settings.
 */
export function spawnService(env: Record<string, string>, name = 'the service', entry: readonly string[] = ['bootstrap/main.ts']): ServiceProcess {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    const value = process.env[key];
    if (value !== undefined) base[key] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', ...entry], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let partial = '';
  const lines: Record<string, unknown>[] = [];
  const waiters: { match: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    partial += chunk;
    const texts = partial.split('\n');
    partial = texts.pop()!;
    for (const text of texts) {
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.match(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    lines,
    stdout: () => out,
    stderr: () => err,
    exited,
    logLine(match, timeoutMs = 30_000) {
      const already = lines.find(match);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (line: Record<string, unknown>) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`${name}: no such log line within ${timeoutMs} ms\nstderr:\n${err}`));
        }, timeoutMs);
        waiters.push(waiter);
        void exited.then(({ code, signal }) => {
          clearTimeout(timer);
          reject(new Error(`${name} exited (code ${code}, signal ${signal}) before the expected log line\nstdout:\n${out.slice(-4000)}\nstderr:\n${err}`));
        });
      });
    },
  };
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it has exited. */
export async function stopProcess(p: Pick<ServiceProcess, 'child' | 'exited'>, graceMs = 10_000): Promise<Exit> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
  const exit = await p.exited;
  clearTimeout(timer);
  return exit;
}
