import * as v from 'valibot';
import { isIsoDate } from '../../core/kernel/dates.js';
import { ISSUE_TEXT_MAX, MAX_PROBLEMS } from './validation.js';

/** Schemas shared by many routes. */
export const Uuid = v.pipe(v.string(), v.uuid('must be a UUID'));
/** The path of a household's weekly plan: /api/v1/households/{householdId}/plans/{planId}/… */
export const PlanPath = v.object({ householdId: Uuid, planId: Uuid });

export const ProblemBody = v.object({
  type: v.nullable(v.string()),
  title: v.nullable(v.string()),
  status: v.nullable(v.number()),
  detail: v.nullable(v.string()),
  instance: v.nullable(v.string()),
  code: v.nullable(v.string()),
  traceId: v.string(),
  errors: v.optional(
    v.pipe(
      v.array(v.object({ path: v.pipe(v.string(), v.maxLength(ISSUE_TEXT_MAX)), message: v.pipe(v.string(), v.maxLength(ISSUE_TEXT_MAX)) })),
      v.maxLength(MAX_PROBLEMS),
      v.description(`The problems found, at most ${MAX_PROBLEMS} (the first found), each path and message at most ${ISSUE_TEXT_MAX} characters.`),
    ),
  ),
});

export const IsoDateTime = v.pipe(v.string(), v.isoTimestamp());
/** A calendar date, YYYY-MM-DD, that exists. */
export const IsoDate = v.pipe(v.string(), v.maxLength(10, 'YYYY-MM-DD'), v.check(isIsoDate, 'a date YYYY-MM-DD'));

/** A page of a list: its items, the cursor of the next page (null on the last), and the count of the whole list. */
export const Page = <T extends v.GenericSchema>(item: T) => v.object({ items: v.array(item), nextCursor: v.nullable(v.string()), total: v.number() });
/** The cursor query parameter of a paged list: any cursor the list did not hand out is validation_failed, an over-long one included. */
export const Cursor = (maxLength: number) => v.optional(v.pipe(v.string(), v.check((c) => c.length <= maxLength, 'not a cursor of this list')));
/** The limit query parameter of a paged list: how many items a page holds, a whole number from 1 to max. */
export const Limit = (max: number) =>
  v.pipe(v.string(), v.regex(/^\d{1,4}$/, `a whole number from 1 to ${max}`), v.transform(Number), v.minValue(1, 'at least 1'), v.maxValue(max, `at most ${max}`));
