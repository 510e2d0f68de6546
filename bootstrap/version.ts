import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The version of this build from package.json, found upwards of this file (from source and from dist/ alike). */
export function buildVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) return (JSON.parse(readFileSync(candidate, 'utf8')) as { version: string }).version;
    const up = dirname(dir);
    if (up === dir) return '0.0.0';
    dir = up;
  }
}

/**
 * The commit this build was made from: written beside the build by `npm start`'s build step
 * (scripts/build-if-changed.mjs, dist/build-info.json), else asked of `git` (a build made otherwise, or the
 * service run from source), else null. Reading a file costs a start nothing; `git` cost it about 60 ms.
 */
export function buildCommit(): string | null {
  const info = join(dirname(fileURLToPath(import.meta.url)), '..', 'build-info.json');
  try {
    if (existsSync(info)) return (JSON.parse(readFileSync(info, 'utf8')) as { commit: string | null }).commit;
  } catch {
    // Unreadable: asked of git as if it were not there.
  }
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 }).toString().trim() || null;
  } catch {
    return null;
  }
}
