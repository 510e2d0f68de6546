/**
 * `npm run test:container`: the container image as a self-hoster meets it, built and run here with podman.
 *
 * 1. A Debian base made here, with no image registry: debootstrap (minbase, bookworm) with Node 26 and npm 11 from
 *    the npm registry in /usr/local. It is kept (image localhost/dinner-base:bookworm-node<version>) for later runs.
 *    It holds no C++ toolchain and no python, so the image's `npm ci` proves that installing compiles nothing.
 * 2. The image from ./Containerfile on that base (`--build-arg BASE`).
 * 3. On SQLite in a volume: start, register, make a household and a recipe over HTTP, stop with SIGTERM (must exit
 *    0 within 10 s), start again: the person signs in and finds both. Checks the process runs as a non-root user,
 *    the health check passes, the confirmation mail was written to the volume, and the image holds no build tools
 *    and no sources.
 * 4. Once more against the host's Postgres (DATABASE_URL_PG, a database of its own, dropped afterwards).
 * 5. Reports the image's size against its budget.
 *
 * Needs podman, debootstrap and runc (installed with apt-get when missing) and root (debootstrap). On this kind of
 * machine podman runs with runc and cgroupfs, the host's ulimits and the host's network (for `npm ci` in a build);
 * a containers.conf in the work folder sets them (CONTAINERS_CONF).
 *   tsx scripts/container-test.ts [--keep]   (--keep: leave the image and volume for a look)
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../test/support/client.js';
import { freePort } from '../test/support/service-process.js';
import { scratchPostgresDatabase } from './scratch-database.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE_LINE = 26;
const IMAGE = 'localhost/dinner-planner:test';
/**
 * What the image may weigh: the base (Debian minbase with Node and npm, 296 MB here; node:26-bookworm-slim is of the
 * same order) plus what this project adds: production dependencies (sharp's libvips, the SQLite binaries), the
 * compiled service and the web app: 92 MB on 2026-11-29, 108 MB with the MCP SDK and its zod. The project's own part
 * is held to its own budget, so that a base of another size does not hide it.
 */
const ADDED_BUDGET_MB = 120;
const STOP_WITHIN_S = 10;
const WORK = process.env['CONTAINER_TEST_DIR'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'dinner-container-test');
const keep = process.argv.includes('--keep');

const log = (line: string) => process.stderr.write(`container-test: ${line}\n`);

function run(command: string, args: readonly string[], options: { input?: Buffer; quiet?: boolean; allowFail?: boolean } = {}): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { encoding: 'utf8', input: options.input, stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024, env: process.env });
  if (!options.quiet && result.stderr) process.stderr.write(result.stderr.split('\n').slice(-20).join('\n'));
  if (result.status !== 0 && !options.allowFail) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}: ${result.stderr?.slice(-2000)}`);
  return result;
}
const podman = (...args: string[]) => run('podman', args, { quiet: true }).stdout.trim();

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`FAILED: ${what}`);
  log(`ok: ${what}`);
}

/** podman, debootstrap and runc, from Debian's packages when missing; and the settings this machine needs. */
function prepareTools(): void {
  const missing = ['podman', 'debootstrap', 'runc'].filter((c) => spawnSync('sh', ['-c', `command -v ${c}`]).status !== 0);
  if (missing.length > 0) {
    log(`installing ${missing.join(', ')} with apt-get`);
    run('apt-get', ['update'], { quiet: true });
    run('apt-get', ['install', '-y', '--no-install-recommends', 'podman', 'debootstrap', 'runc'], { quiet: true });
  }
  mkdirSync(WORK, { recursive: true });
  const conf = join(WORK, 'containers.conf');
  writeFileSync(
    conf,
    [
      '[containers]',
      // The host's hard limits: podman's defaults ask for more than this kind of machine allows.
      'default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]',
      '[engine]',
      'runtime = "runc"',
      'cgroup_manager = "cgroupfs"',
      'events_logger = "file"',
      '',
    ].join('\n'),
  );
  process.env['CONTAINERS_CONF'] = conf;
}

const ARCH = process.arch === 'arm64' ? 'arm64' : 'x64';

/** The npm package's tarball, fetched once into the work folder (npm pack prints its file name). */
function packed(spec: string): string {
  const dir = join(WORK, 'packs');
  mkdirSync(dir, { recursive: true });
  const name = execFileSync('npm', ['pack', '--silent', spec], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop()!;
  return join(dir, name);
}

/** The Debian base with Node and npm, made here unless it was made before; answers its name. */
function baseImage(): string {
  const nodeTarball = packed(`node-linux-${ARCH}@${NODE_LINE}`);
  const version = /node-linux-\w+-(\d+\.\d+\.\d+)\.tgz$/.exec(nodeTarball)?.[1] ?? String(NODE_LINE);
  const name = `localhost/dinner-base:bookworm-node${version}`;
  if (run('podman', ['image', 'exists', name], { allowFail: true, quiet: true }).status === 0) {
    log(`base ${name} made before`);
    return name;
  }
  const started = Date.now();
  const root = mkdtempSync(join(WORK, 'rootfs-'));
  try {
    log('debootstrap: Debian bookworm, minbase');
    run('debootstrap', ['--variant=minbase', '--include=libatomic1,ca-certificates', 'bookworm', root, 'http://deb.debian.org/debian'], { quiet: true });
    run('tar', ['-xzf', nodeTarball, '-C', join(root, 'usr/local'), '--strip-components=1', 'package/bin/node']);
    const npmDir = join(root, 'usr/local/lib/node_modules/npm');
    mkdirSync(npmDir, { recursive: true });
    run('tar', ['-xzf', packed('npm@11'), '-C', npmDir, '--strip-components=1']);
    for (const bin of ['npm', 'npx']) run('ln', ['-sf', `../lib/node_modules/npm/bin/${bin}-cli.js`, join(root, `usr/local/bin/${bin}`)]);
    // The host's CA bundle: npm in a build reaches the registry as npm on this host does (through its proxy).
    const hostCa = process.env['NODE_EXTRA_CA_CERTS'] ?? '/etc/ssl/certs/ca-certificates.crt';
    run('cp', [hostCa, join(root, 'usr/local/share/host-ca.crt')]);
    run('rm', ['-rf', join(root, 'var/cache/apt/archives'), join(root, 'var/lib/apt/lists')]);
    const tar = execFileSync('tar', ['-C', root, '-c', '.'], { maxBuffer: 2 * 1024 * 1024 * 1024 });
    run('podman', ['import', '--change', 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/host-ca.crt', '--change', 'CMD ["node"]', '-', name], { input: tar, quiet: true });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  log(`base ${name} made in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return name;
}

function buildImage(base: string): void {
  const started = Date.now();
  const commit = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() || 'unknown';
  // docker format: an OCI image drops HEALTHCHECK.
  run('podman', ['build', '--format', 'docker', '--network', 'host', '--build-arg', `BASE=${base}`, '--build-arg', `BUILD_ID=${commit}`, '-f', join(ROOT, 'Containerfile'), '-t', IMAGE, ROOT], { quiet: true });
  log(`image built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

async function waitReady(url: string, name: string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 90_000) {
    try {
      if ((await fetch(`${url}/health/ready`)).status === 200) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  process.stderr.write(podman('logs', '--tail', '40', name));
  throw new Error(`${name} was not ready within 90 s`);
}

/** Stops the container with SIGTERM and answers the seconds it took and its exit code. */
function stopGracefully(name: string): { seconds: number; exitCode: number } {
  const started = Date.now();
  podman('stop', '--time', String(STOP_WITHIN_S + 5), name);
  const seconds = (Date.now() - started) / 1000;
  return { seconds, exitCode: Number(podman('inspect', '--format', '{{.State.ExitCode}}', name)) };
}

interface Scenario {
  label: string;
  env: Record<string, string>;
  volume: string | null;
}

/** Start, register, household, recipe, stop, start, find them again. */
async function scenario(s: Scenario): Promise<void> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const name = `dinner-test-${s.label}-${process.pid}`;
  const envArgs = Object.entries({ PORT: String(port), PUBLIC_BASE_URL: url, ...s.env }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  podman('run', '-d', '--name', name, '--network', 'host', ...envArgs, ...(s.volume ? ['-v', `${s.volume}:/data`] : []), IMAGE);
  try {
    log(`${s.label}: ready in ${await waitReady(url, name)} ms`);
    const person = new Client(url);
    const email = `container-${process.pid}-${s.label}@example.org`;
    const password = 'correct horse battery';
    check((await person.post('/api/v1/auth/register', { email, password, displayName: 'Kari' })).status === 200, `${s.label}: register`);
    const household = await person.post('/api/v1/households', { name: 'Hansen' });
    check(household.status === 201 || household.status === 200, `${s.label}: make a household`);
    const base = `/api/v1/households/${household.json.id}`;
    const recipe = await person.post(`${base}/recipes`, { title: 'Fiskesuppe', servings: 4, activeMinutes: 20, totalMinutes: 40, steps: ['Kok.'], ingredients: [{ displayName: 'torsk', quantity: 400, unit: 'g', optional: false, baseRecipeId: null, reference: null }] });
    check(recipe.status === 201 || recipe.status === 200, `${s.label}: add a recipe`);
    check(podman('exec', name, 'id', '-u') !== '0', `${s.label}: the service runs as a non-root user (uid ${podman('exec', name, 'id', '-u')})`);
    check(run('podman', ['healthcheck', 'run', name], { allowFail: true, quiet: true }).status === 0, `${s.label}: the image's HEALTHCHECK passes`);
    if (s.volume) check(podman('exec', name, 'ls', '/data/outbox').split('\n').filter(Boolean).length >= 1, `${s.label}: the confirmation mail was written to the volume (no SMTP_URL)`);
    const stop = stopGracefully(name);
    check(stop.exitCode === 0 && stop.seconds <= STOP_WITHIN_S, `${s.label}: stopped on SIGTERM in ${stop.seconds.toFixed(1)} s, exit code ${stop.exitCode} (within ${STOP_WITHIN_S} s, 0)`);
    podman('start', name);
    log(`${s.label}: ready again in ${await waitReady(url, name)} ms`);
    const again = new Client(url);
    check((await again.post('/api/v1/auth/login', { email, password })).status === 200, `${s.label}: after the restart, the person signs in`);
    const recipes = await again.get(`${base}/recipe-summaries?limit=10`);
    check(recipes.status === 200 && JSON.stringify(recipes.json).includes('Fiskesuppe'), `${s.label}: after the restart, the household and its recipe are there`);
    check((await person.get('/api/v1/me')).status === 200, `${s.label}: the session made before the restart still holds`);
    stopGracefully(name);
  } finally {
    run('podman', ['rm', '-f', name], { allowFail: true, quiet: true });
  }
}

/** The image holds what it runs: no compiler, make or python, no sources, nothing compiled at install. */
function checkContents(): void {
  const found = run('podman', ['run', '--rm', '--entrypoint', 'sh', IMAGE, '-c', 'for c in gcc g++ cc c++ make python3 python; do command -v $c; done; true'], { quiet: true }).stdout.trim();
  check(found === '', `no build tools in the image${found ? ` (found ${found})` : ''}`);
  const top = run('podman', ['run', '--rm', '--entrypoint', 'ls', IMAGE, '-A', '/app'], { quiet: true }).stdout.trim().split('\n').sort();
  check(JSON.stringify(top) === JSON.stringify(['dist', 'node_modules', 'package-lock.json', 'package.json', 'web']), `/app holds only dist, web/dist, node_modules and the package files (${top.join(' ')})`);
  const typescript = run('podman', ['run', '--rm', '--entrypoint', 'sh', IMAGE, '-c', 'find /app/dist /app/web -name "*.ts" ! -name "*.d.ts" | head -3; ls /app/node_modules/typescript /app/node_modules/better-sqlite3/build 2>/dev/null | head -1; true'], { quiet: true }).stdout.trim();
  check(typescript === '', `no sources, no dev dependencies, nothing built at install${typescript ? ` (found ${typescript})` : ''}`);
}

function sizeOf(image: string): number {
  return Number(podman('image', 'inspect', '--format', '{{.Size}}', image)) / 1e6;
}

async function withPostgresDatabase(body: (url: string) => Promise<void>): Promise<void> {
  const admin = process.env['DATABASE_URL_PG'];
  if (!admin) {
    log('DATABASE_URL_PG is not set: the Postgres run is skipped');
    return;
  }
  const db = await scratchPostgresDatabase(admin, 'dinner_container');
  try {
    await body(db.url);
  } finally {
    await db.drop();
  }
}

async function main(): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error('run as root: debootstrap and podman need it here');
  prepareTools();
  const base = baseImage();
  buildImage(base);
  const volume = `dinner-test-data-${process.pid}`;
  podman('volume', 'create', volume);
  try {
    checkContents();
    await scenario({ label: 'sqlite', env: {}, volume });
    await withPostgresDatabase((url) => scenario({ label: 'postgres', env: { DATABASE_URL: url }, volume: null }));
    const size = sizeOf(IMAGE);
    const added = size - sizeOf(base);
    log(`image ${IMAGE}: ${size.toFixed(0)} MB, of which the base ${(size - added).toFixed(0)} MB and this project ${added.toFixed(0)} MB (budget ${ADDED_BUDGET_MB} MB)`);
    check(added <= ADDED_BUDGET_MB, `what the project adds to the base stays within ${ADDED_BUDGET_MB} MB (${added.toFixed(0)} MB)`);
  } finally {
    if (!keep) {
      run('podman', ['volume', 'rm', '-f', volume], { allowFail: true, quiet: true });
      run('podman', ['rmi', '-f', IMAGE], { allowFail: true, quiet: true });
      // Build stages left behind (the base is kept for later runs).
      run('podman', ['image', 'prune', '-f'], { allowFail: true, quiet: true });
    }
  }
  log('passed');
}

await main();
