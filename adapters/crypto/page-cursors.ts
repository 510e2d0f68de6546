import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PageCursors } from '../../ports/page-cursors.js';

const TAG_BYTES = 16;
const SHAPE = /^[A-Za-z0-9_-]{1,8000}\.[A-Za-z0-9_-]{22}$/;

/**
 * Cursors as `base64url(JSON position) "." base64url(HMAC-SHA256(key, scope, payload)[0..16])`. The tag makes a
 * cursor tamper-evident and binds it to its scope (household and filter): an edited cursor, one from another list,
 * household or filter, or any string this code did not make opens as null. The position is not secret (it is the
 * last title the caller was shown); the default key is fixed so that a cursor outlives a restart and works on
 * every instance, and forging one could only start a page elsewhere in the caller's own, household-scoped list.
 */
export function hmacPageCursors(key: string = 'dinner-planner/page-cursor/v1'): PageCursors {
  const tag = (scope: string, payload: string) =>
    createHmac('sha256', key).update(scope).update('\0').update(payload).digest().subarray(0, TAG_BYTES);
  return {
    seal(scope, position) {
      const payload = Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
      return `${payload}.${tag(scope, payload).toString('base64url')}`;
    },
    open(scope, cursor) {
      if (!SHAPE.test(cursor)) return null;
      const [payload, given] = cursor.split('.') as [string, string];
      const givenTag = Buffer.from(given, 'base64url');
      if (givenTag.length !== TAG_BYTES || !timingSafeEqual(givenTag, tag(scope, payload))) return null;
      try {
        const position: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
        return Array.isArray(position) && position.every((p) => typeof p === 'string') ? (position as string[]) : null;
      } catch {
        return null;
      }
    },
  };
}
