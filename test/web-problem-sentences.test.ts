import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { createRuntime } from '../bootstrap/runtime.js';
import { loadConfig } from '../config/config.js';
import { jsonLogger } from '../adapters/log/json-logger.js';

// The web app shows every problem as a sentence chosen by its code, from one table per language. Every code that a
// route the app calls can answer must be in both tables; otherwise a person would read a vague fallback.
const WEB_SRC = 'web/src';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (e.name === 'api' ? [] : sources(join(dir, e.name))) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));
}

/** The keys of the `problem: { ... }` table of each catalogue (web/src/i18n/nb.ts, en.ts), in that order. */
function problemTables(): Set<string>[] {
  return ['nb', 'en'].flatMap((language) => {
    const text = readFileSync(join(WEB_SRC, 'i18n', `${language}.ts`), 'utf8');
    return [...text.matchAll(/\n {2}problem: \{\n([\s\S]*?)\n {2}\}/g)].map((m) => new Set([...m[1]!.matchAll(/^ {4}([a-z_]+):/gm)].map((k) => k[1]!)));
  });
}

describe('the web app\'s problem sentences', () => {
  it('cover every problem code of every route the app calls, in Norwegian and in English', async function () {
    this.timeout(30_000);
    const calls = new Set<string>();
    for (const file of sources(WEB_SRC)) for (const m of readFileSync(file, 'utf8').matchAll(/api\.(GET|POST|PUT|PATCH|DELETE)\('([^']+)'/g)) calls.add(`${m[1]} ${m[2]}`);
    expect(calls.size).to.be.greaterThan(20);

    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', WEB_DIR: '/nonexistent' });
    const runtime = await createRuntime(config, { logger: jsonLogger('silent') });
    const needed = new Map<string, string[]>();
    try {
      const routes = new Map(runtime.routes.map((r) => [`${r.method} ${r.path}`, r]));
      for (const call of calls) {
        const r = routes.get(call);
        expect(r, `the web app calls ${call}, which the service does not have`).to.not.equal(undefined);
        // What any route can answer (the web app sends no X-App-Version, so 426 never reaches it), then its own codes.
        const codes = ['validation_failed', 'value_too_long', 'internal_error', 'store_busy', 'store_unavailable', ...Object.keys(r!.problems ?? {})];
        if (r!.rateLimit !== 'none') codes.push('rate_limited');
        if (r!.auth !== 'public') codes.push('unauthenticated');
        if (r!.auth !== 'public' && r!.method !== 'GET') codes.push('cross_site_request', 'idempotency_key_in_progress', 'idempotency_key_reused');
        for (const code of codes) needed.set(code, [...(needed.get(code) ?? []), call]);
      }
    } finally {
      await runtime.close();
    }
    const [nb, en] = problemTables();
    expect(nb, 'the Norwegian problem table').to.be.an.instanceOf(Set);
    expect(en, 'the English problem table').to.be.an.instanceOf(Set);
    const missing = (table: Set<string>) => [...needed.keys()].filter((code) => !table.has(code)).map((code) => `${code} (${needed.get(code)![0]})`);
    expect(missing(nb!), 'codes with no Norwegian sentence').to.deep.equal([]);
    expect(missing(en!), 'codes with no English sentence').to.deep.equal([]);
  });
});
