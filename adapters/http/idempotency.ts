import { createHash } from 'node:crypto';
import type Koa from 'koa';
import type { Clock } from '../../ports/clock.js';
import type { IdempotencyStore } from '../../ports/idempotency-store.js';
import { problems } from './problem.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Visible ASCII, as the IETF draft's examples (a UUID, a ULID) are. */
const KEY = /^[\x21-\x7E]{1,255}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A claim still unanswered after this long was made by a process that is gone: a retry runs the request. */
const ABANDONED_MS = 60_000;

export const IDEMPOTENCY_DOC =
  'Optional. Any 1 to 255 visible ASCII characters (a UUID will do). A request repeated with the same key (a retry after ' +
  'a lost answer, an offline queue replayed) has its effect at most once: the first successful (2xx) answer is kept for ' +
  'the login and the key for 24 hours and given again to every repeat (header Idempotent-Replayed: true) without ' +
  'running the request again. A key belongs to the login and the request that first used it (method, path, query and body): ' +
  'the same key with another request is 422 idempotency_key_reused; a repeat while the first is still being answered is ' +
  '409 idempotency_key_in_progress (Retry-After: 1). An answer that was not a success is not kept: a repeat runs the ' +
  'request again. Signing out forgets the login\'s keys.';

export interface IdempotencySettings {
  readonly store: IdempotencyStore;
  readonly clock: Clock;
}

/** A digest of what the request sent: the JSON text, or the multipart fields and files, or the raw body. */
export function requestFingerprint(parts: readonly (string | Buffer)[]): string {
  const h = createHash('sha256');
  for (const p of parts) {
    const bytes = typeof p === 'string' ? Buffer.from(p, 'utf8') : p;
    h.update(`${bytes.length}:`);
    h.update(bytes);
  }
  return h.digest('hex');
}

/**
 * Runs `answer` (the rest of a state-changing, signed-in route) under the request's Idempotency-Key, if it sent
 * one: at most once in effect per login and key. The answer is kept only when it is a success with a body that is
 * text or JSON (or none); anything else lets go of the key, so that a repeat runs the request again.
 */
export async function underIdempotencyKey(settings: IdempotencySettings, ctx: Koa.Context, login: string, fingerprint: () => string, answer: () => Promise<void>): Promise<void> {
  const key = ctx.get(IDEMPOTENCY_HEADER);
  if (key === '') return answer();
  if (!KEY.test(key)) throw problems.validation('Idempotency-Key must be 1 to 255 visible ASCII characters');
  const now = settings.clock.now();
  const claim = await settings.store.claim(login, key, { request: `${ctx.method} ${ctx.path}`, fingerprint: fingerprint() }, { now, since: new Date(now.getTime() - DAY_MS), abandonedBefore: new Date(now.getTime() - ABANDONED_MS) });
  if (claim.kind === 'in-progress') throw problems.idempotencyInProgress();
  if (claim.kind === 'other-request') throw problems.idempotencyReused();
  if (claim.kind === 'answered') {
    ctx.status = claim.answer.status;
    if (claim.answer.contentType) ctx.type = claim.answer.contentType;
    if (claim.answer.body !== '' || claim.answer.contentType) ctx.body = claim.answer.body;
    ctx.set('Idempotent-Replayed', 'true');
    return;
  }
  try {
    await answer();
  } catch (err) {
    await settings.store.release(login, key);
    throw err;
  }
  const body: unknown = ctx.body;
  const keepable = ctx.status >= 200 && ctx.status < 300 && (body === undefined || body === null || typeof body === 'string' || (typeof body === 'object' && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function'));
  if (!keepable) {
    await settings.store.release(login, key);
    return;
  }
  const text = body === undefined || body === null ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  await settings.store.keep(login, key, { status: ctx.status, contentType: body === undefined || body === null ? null : (ctx.response.get('Content-Type') || null), body: text });
}
