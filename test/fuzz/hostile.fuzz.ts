import v8 from 'node:v8';
import vm from 'node:vm';
import { expect } from 'chai';
import { JSON_BODY_LIMIT_BYTES } from '../../adapters/http/app.js';
import { databaseKinds } from '../support/databases.js';
import { startTestServer, TEST_RATE_LIMITS, type TestServer } from '../support/server.js';
import { CLASSES, type BodyRoute, type HostileContext, type HostileRequest } from './hostile.js';
import { operationsOf, type Operation } from './operations.js';
import { seedHousehold } from './seed.js';
import { differences, snapshot, type Snapshot } from './snapshot.js';

/**
 * Hostile input (issue 42): for every operation of the served OpenAPI document, the classes of input that once
 * cost the service time, memory or its prototypes (hostile.ts): arrays 10× and 1,000× past their maxItems,
 * prototype keys at every depth, bytes that are not UTF-8, and bodies at the size limit. Each request must be
 * refused with a 4xx application/problem+json with a code (the one the rules name, where they name one) and a small
 * answer, in time; no request may write; and after all of them the heap must be back near where it started.
 *
 * The requests are made from the document alone, the same each run: a failure names one, and running the suite
 * again sends it again.
 */

/**
 * Generous, so that a loaded 2-core machine does not flake: a refusal is meant to take well under 100 ms, which a
 * benchmark measures; this catches work that grows with the input (seconds for a million items).
 */
const TIME_BOUND_MS = Number(process.env['HOSTILE_TIME_BOUND_MS'] ?? 2000);
/** To send again only the requests whose route or description holds this text: HOSTILE_ONLY='POST /api/v1/feedback'. */
const ONLY = process.env['HOSTILE_ONLY'] ?? '';
/** HOSTILE_TRACE=1 prints each request before it goes (the last line names the one a crash came from), and its answer. */
const TRACE = process.env['HOSTILE_TRACE'] === '1';
/** What any request costs beside its size (a round trip, a session read): a small step of a ladder has this much more. */
const LADDER_OVERHEAD_MS = 250;
/** The rules' bounds on a refusal: at most 20 problems, each text at most 200 characters, the whole at most 16 kB. */
const MAX_ANSWER_BYTES = 16 * 1024;
const MAX_PROBLEMS = 20;
const MAX_PROBLEM_TEXT = 200;
/** `detail` names the first three problems: three paths and messages at most, and a few words. */
const MAX_DETAIL = 3 * (2 * MAX_PROBLEM_TEXT + 2) + 64;
/** The heap may keep what the service caches (prepared statements, rate counters), but not what the inputs held. */
const HEAP_SLACK_BYTES = 64 * 1024 * 1024;
/** Failures listed in a test's message; the rest are counted. */
const LISTED = 30;

/** The same engine flag node --expose-gc sets, here at run time: a gc() to call before reading the heap. */
v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc') as () => void;
const settledHeap = () => {
  // Twice: a first collection can leave what only a finalizer of the first one let go.
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

interface OpenApiDoc {
  paths: Record<string, Record<string, { requestBody?: { description?: string } }>>;
}

/**
 * The routes with a body, each with its kind and limit: the document states a route's own limit in its words; the
 * household import's is HOUSEHOLD_IMPORT_MAX_BYTES whatever its words say.
 */
function bodyRoutesOf(doc: OpenApiDoc, ops: readonly Operation[], importMaxBytes: number): BodyRoute[] {
  const out: BodyRoute[] = [];
  for (const op of ops) {
    if (!op.body) continue;
    const said = /at most (\d+) bytes/i.exec(doc.paths[op.template]?.[op.method.toLowerCase()]?.requestBody?.description ?? '');
    const stated = said ? Number(said[1]) : op.operationId === 'importHousehold' ? importMaxBytes : null;
    const limit = stated ?? JSON_BODY_LIMIT_BYTES;
    if (op.body.kind === 'binary') out.push({ op, kind: 'binary', schema: {}, limit, mediaTypes: op.body.mediaTypes });
    else if (op.body.kind === 'raw') {
      const schema = (doc.paths[op.template]?.[op.method.toLowerCase()]?.requestBody as { content?: Record<string, { schema?: Record<string, unknown> }> } | undefined)?.content?.['application/json']?.schema ?? {};
      out.push({ op, kind: 'raw', schema, limit });
    } else if (op.body.kind === 'multipart') out.push({ op, kind: 'multipart', schema: op.body.schema, limit });
    // A JSON body with a limit of its own is read raw and parsed by the route itself (the household import).
    else out.push({ op, kind: stated !== null ? 'own-limit' : 'json', schema: op.body.schema, limit });
  }
  return out;
}

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  readonly ms: number;
  readonly bytes: number;
}

async function send(baseUrl: string, r: HostileRequest): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(baseUrl + r.url, { method: r.method, headers: r.headers, redirect: 'manual', ...(r.body ? { body: new Uint8Array(r.body) } : {}) });
  const contentType = res.headers.get('content-type') ?? '';
  // A live stream (GET /api/v1/me/changes) never ends by itself: were it opened, its status would be the answer.
  const text = contentType.startsWith('text/event-stream') ? (await res.body?.cancel(), '') : await res.text();
  return { status: res.status, contentType, text, ms: performance.now() - started, bytes: Buffer.byteLength(text) };
}

/** The time the request may take: the bound, or its share of it for a step of a ladder. */
const boundOf = (r: HostileRequest) => (r.ladder && r.ladder.fraction < 1 ? TIME_BOUND_MS * r.ladder.fraction + LADDER_OVERHEAD_MS : TIME_BOUND_MS);

/** What is wrong with the answer, or null. */
function verdict(r: HostileRequest, a: Answer): string | null {
  if (a.status < 400 || a.status >= 500) return `answered ${a.status}, not a 4xx`;
  if (!a.contentType.startsWith('application/problem+json')) return `answered ${a.status} as ${a.contentType || 'no Content-Type'}, not application/problem+json`;
  let problem: { code?: unknown; detail?: unknown; errors?: unknown };
  try {
    problem = JSON.parse(a.text) as typeof problem;
  } catch {
    return 'answered a problem that is not JSON';
  }
  if (typeof problem.code !== 'string' || problem.code === '') return 'answered a problem without a code';
  const bound = boundOf(r);
  if (a.ms > bound) {
    if (bound === TIME_BOUND_MS) return `answered after ${Math.round(a.ms)} ms (bound ${TIME_BOUND_MS} ms)`;
    const whole = Math.round(a.ms / r.ladder!.fraction);
    return `answered after ${Math.round(a.ms)} ms (bound ${Math.round(bound)} ms: ${TIME_BOUND_MS} ms scaled to this step of a ladder, plus ${LADDER_OVERHEAD_MS} ms); at this rate the whole body would take about ${whole} ms`;
  }
  if (a.bytes > MAX_ANSWER_BYTES) return `answered ${a.bytes} bytes (at most ${MAX_ANSWER_BYTES})`;
  if (typeof problem.detail === 'string' && problem.detail.length > MAX_DETAIL) return `answered a detail of ${problem.detail.length} characters (at most ${MAX_DETAIL})`;
  const errors = problem.errors;
  if (errors !== undefined) {
    if (!Array.isArray(errors)) return 'answered errors that are not a list';
    if (errors.length > MAX_PROBLEMS) return `answered ${errors.length} problems (at most ${MAX_PROBLEMS})`;
    for (const e of errors as { path?: unknown; message?: unknown }[]) {
      if (typeof e.path !== 'string' || typeof e.message !== 'string') return 'answered a problem without a path and a message';
      if (e.path.length > MAX_PROBLEM_TEXT || e.message.length > MAX_PROBLEM_TEXT) return `answered a problem text of ${Math.max(e.path.length, e.message.length)} characters (at most ${MAX_PROBLEM_TEXT})`;
    }
  }
  const paths = Array.isArray(errors) ? (errors as { path?: unknown }[]).map((e) => e.path) : [];
  const { want } = r;
  if (want.code !== undefined && problem.code !== want.code) return `answered code ${problem.code}, not ${want.code}`;
  if (want.notCode !== undefined && problem.code === want.notCode) return `answered code ${problem.code}`;
  if (want.firstPath !== undefined && paths[0] !== want.firstPath) return `answered errors[0].path ${JSON.stringify(paths[0])}, not ${want.firstPath}`;
  if (want.somePath !== undefined && !paths.includes(want.somePath)) return `answered errors without the path ${want.somePath}: ${JSON.stringify(paths.slice(0, 3))}`;
  const inside = want.nothingUnder !== undefined ? paths.find((p) => typeof p === 'string' && p.startsWith(`${want.nothingUnder}.`)) : undefined;
  if (inside !== undefined) return `answered a problem inside ${want.nothingUnder} (${inside}): its items were looked at`;
  return null;
}

/** The request, enough to send again by hand: method, URL, and the body's size and first bytes. */
function described(r: HostileRequest): string {
  const url = r.url.length > 160 ? `${r.url.slice(0, 160)}…(${r.url.length} characters)` : r.url;
  const type = Object.entries(r.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  const extra = Object.entries(r.headers).filter(([k]) => !['cookie', 'content-type'].includes(k.toLowerCase())).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  const body = r.body ? ` body (${r.body.length} bytes${type ? `, ${type}` : ''}): ${JSON.stringify(r.body.subarray(0, 160).toString('latin1'))}${r.body.length > 160 ? '…' : ''}` : '';
  return `${r.method} ${url}${extra.length ? ` [${extra.join(', ')}]` : ''}${body}`;
}

describe('fuzz: hostile input to every operation (issue 42)', function () {
  for (const kind of databaseKinds()) {
    describe(`[${kind.name}]`, () => {
      let server: TestServer;
      let ctx: HostileContext;
      let baseline: Snapshot;
      let heapBefore = 0;
      let heapAfter = 0;
      const stats = { requests: 0, ms: 0, byCode: new Map<string, number>(), slowest: [] as { ms: number; what: string }[], largest: { bytes: 0, what: '' } };
      const db = () => snapshot(server.runtime.db.knex, server.database.schema);
      // Ladders with a step answered late (or not at all): their larger steps are not sent, each named in the failures.
      const brokenLadders = new Set<string>();
      const sendable = (r: HostileRequest) => (!ONLY || `${r.route} ${r.what}`.includes(ONLY)) && !(r.ladder && brokenLadders.has(r.ladder.id));

      before(async function () {
        server = await startTestServer(kind, {
          // Far above what the fuzzer sends, so a 429 never hides an answer.
          RATE_LIMITS: TEST_RATE_LIMITS.replace(/=10000\//g, '=100000000/'),
        });
        const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as OpenApiDoc & Parameters<typeof operationsOf>[0];
        const ops = operationsOf(doc);
        const seeded = await seedHousehold(server.url);
        ctx = { ops, bodyRoutes: bodyRoutesOf(doc, ops, server.config.householdImportMaxBytes), realValues: seeded.realValues, token: seeded.token, bearer: seeded.bearer };
        baseline = await db();
        heapBefore = settledHeap();
      });

      after(async function () {
        const codes = [...stats.byCode].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c}×${n}`).join(' ');
        console.log(
          `      [${kind.name}] ${stats.requests} hostile requests in ${(stats.ms / 1000).toFixed(1)} s; slowest ${stats.slowest.map((x) => `${Math.round(x.ms)} ms (${x.what})`).join(', ')}; ` +
            `largest answer ${stats.largest.bytes} bytes; heap ${mb(heapBefore)} → ${mb(heapAfter)}; codes: ${codes}`,
        );
        await server?.stop();
      });

      /** Sends every request of the class; the failures, each with its request and answer, at most LISTED of them. */
      const run = async (requests: Iterable<HostileRequest>): Promise<string[]> => {
        const failures: string[] = [];
        let failed = 0;
        for (const r of requests) {
          if (ONLY && !`${r.route} ${r.what}`.includes(ONLY)) continue;
          if (!sendable(r)) {
            failed++;
            if (failures.length < LISTED) failures.push(`${r.route} — ${r.what}: not sent, as a smaller step of its ladder was answered late`);
            continue;
          }
          if (TRACE) console.log(`      → ${r.route} — ${r.what} (${r.body?.length ?? 0} bytes)`);
          let answer: Answer;
          try {
            answer = await send(server.url, r);
          } catch (err) {
            failed++;
            if (r.ladder) brokenLadders.add(r.ladder.id);
            if (failures.length < LISTED) failures.push(`${r.route} — ${r.what}: no answer (${(err as Error).message}; ${String((err as Error).cause ?? '')})\n    ${described(r)}`);
            continue;
          }
          stats.requests++;
          stats.ms += answer.ms;
          const code = /"code":"([^"]*)"/.exec(answer.text)?.[1] ?? String(answer.status);
          if (TRACE) console.log(`      ← ${answer.status} ${code} in ${Math.round(answer.ms)} ms, ${answer.bytes} bytes: ${answer.text.slice(0, 200)}`);
          stats.byCode.set(code, (stats.byCode.get(code) ?? 0) + 1);
          // The three slowest, to see how near the bound the largest bodies come.
          if (stats.slowest.length < 3 || answer.ms > stats.slowest[2]!.ms) stats.slowest = [...stats.slowest, { ms: answer.ms, what: `${r.route}, ${r.what}` }].sort((a, b) => b.ms - a.ms).slice(0, 3);
          if (answer.bytes > stats.largest.bytes) stats.largest = { bytes: answer.bytes, what: `${r.route}, ${r.what}` };
          const wrong = verdict(r, answer);
          if (!wrong) continue;
          failed++;
          if (r.ladder && answer.ms > boundOf(r)) brokenLadders.add(r.ladder.id);
          if (failures.length < LISTED) {
            failures.push(`${r.route} — ${r.what}: ${wrong}\n    answer: ${answer.status} in ${Math.round(answer.ms)} ms, ${answer.bytes} bytes: ${answer.text.slice(0, 300)}\n    request: ${described(r)}`);
          }
        }
        if (failed > failures.length) failures.push(`…and ${failed - failures.length} more`);
        return failures;
      };

      /** The request of the class that wrote to the database (sent again, the database read after each), or null. */
      const writer = async (requests: Iterable<HostileRequest>): Promise<string | null> => {
        for (const r of requests) {
          if (!sendable(r)) continue;
          const before = await db();
          await send(server.url, r).catch(() => undefined);
          const diff = differences(before, await db());
          if (diff.length) return `${r.route} — ${r.what} wrote:\n${diff.join('\n')}\n    request: ${described(r)}`;
        }
        return null;
      };

      for (const [name, make] of Object.entries(CLASSES)) {
        it(`${name}: each refused with a small 4xx problem+json in time, and nothing written`, async function () {
          const failures = await run(make(ctx));
          const after = await db();
          const changed = differences(baseline, after);
          if (changed.length) {
            baseline = after;
            const culprit = await writer(make(ctx));
            baseline = await db();
            failures.push(culprit ?? `the database changed, but not again when the class was sent again:\n${changed.join('\n')}`);
          }
          expect(failures, failures.join('\n\n')).to.deep.equal([]);
        });
      }

      it('leaves the heap back near where it started', function () {
        heapAfter = settledHeap();
        expect(heapAfter - heapBefore, `heap ${mb(heapBefore)} before the hostile requests, ${mb(heapAfter)} after`).to.be.at.most(HEAP_SLACK_BYTES);
      });
    });
  }
});
