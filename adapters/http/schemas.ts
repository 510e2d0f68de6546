import * as v from 'valibot';
import { isIsoDate } from '../../core/kernel/dates.js';
import { ISSUE_TEXT_MAX, MAX_PROBLEMS } from './validation.js';

/** Schemas shared by many routes. */
export const Uuid = v.pipe(v.string(), v.uuid('must be a UUID'));

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
