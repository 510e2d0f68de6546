#!/usr/bin/env node
// npm start's build step. The service (tsc into dist/) and the web app (Vite into web/dist/) are each built only
// when their inputs changed since their last build here: a fingerprint of the inputs (every file's path and content,
// and the package lock) is kept beside the output, and a start with nothing changed builds nothing, so a restart
// after a crash or an update that did not change the code reaches /health in about a second (docs/performance.md).
// Plain JavaScript, run by Node alone: it must not need the build it decides on.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = join(import.meta.dirname, '..');
// Kept in dist/ (never served; web/dist/ is), both beside the service's build.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const TARGETS = [
  {
    name: 'the service',
    inputs: ['core', 'ports', 'adapters', 'bootstrap', 'config', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'],
    output: 'dist/bootstrap/main.js',
    fingerprint: 'dist/.build-inputs',
    script: 'build',
    // What /health reports as buildId (bootstrap/version.ts), found here once rather than by `git` at every start.
    after: () => writeFileSync(join(root, 'dist/build-info.json'), `${JSON.stringify({ commit: gitCommit() })}\n`),
  },
  {
    name: 'the web app',
    inputs: ['web', 'package.json', 'package-lock.json'],
    output: 'web/dist/index.html',
    fingerprint: 'dist/.web-build-inputs',
    script: 'build:web',
  },
];
/** Folders never read as inputs: the outputs themselves and what tools keep beside the sources. */
const SKIPPED = new Set(['node_modules', 'dist', '.vite']);

/** The files of an input (a file, or every file in a folder but the skipped ones), by path. */
function filesOf(input) {
  const full = join(root, input);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [input];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((path) => !path.split(sep).some((part) => SKIPPED.has(part)))
    .sort();
}

/** The commit checked out, or null (no git, or not a checkout: a tarball). */
function gitCommit() {
  const run = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 });
  return (run.status === 0 && run.stdout.toString().trim()) || null;
}

function fingerprintOf(inputs) {
  const hash = createHash('sha256');
  for (const path of inputs.flatMap(filesOf)) hash.update(`${path}\0`).update(readFileSync(join(root, path))).update('\0');
  return hash.digest('hex');
}

for (const target of TARGETS) {
  const now = fingerprintOf(target.inputs);
  const kept = existsSync(join(root, target.fingerprint)) ? readFileSync(join(root, target.fingerprint), 'utf8').trim() : null;
  if (kept === now && existsSync(join(root, target.output))) {
    console.log(`${target.name}: unchanged since its last build`);
    continue;
  }
  const run = spawnSync(npm, ['run', target.script], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  target.after?.();
  writeFileSync(join(root, target.fingerprint), `${now}\n`);
}
