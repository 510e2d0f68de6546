import * as v from 'valibot';
import type { AppError, ErrorOf } from '../../../core/kernel/errors.js';
import type { Result } from '../../../core/kernel/result.js';
import { PUBLIC_PER_IP, resource, type Declared } from '../route.js';

/** A span of milliseconds as a count of days, for the text of a description. */
export const days = (ms: number) => `${ms / 86_400_000}`;

/** The links are clicked in mail programs: answers are neither cached nor indexed. */
const LINK_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' } as const;
// Checked by the use case: any token it does not know (malformed included) answers 404, not 400.
const TokenQuery = v.object({ token: v.string() });

/** A link mailed to a listed address, clicked to confirm it or to take it off the list; the token is the proof. */
interface MailedLink<D, S extends string, E extends AppError['type']> {
  readonly tag: string;
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  /** What a click that worked answers, as { status }. */
  readonly status: S;
  /** The documented description of that answer. */
  readonly answered: string;
  readonly errors: readonly E[];
  run(deps: D, query: { token: string }): Promise<Result<S, ErrorOf<E>>>;
}

/**
 * The GET route of a mailed link, the same for every mailing list: Public, counted per client IP, the token in the
 * query, and the link headers on every answer, a refusal too.
 */
export function mailedLinkRoute<D, S extends string, E extends AppError['type']>(link: MailedLink<D, S, E>): Declared<D> {
  const Answer = v.object({ status: v.literal(link.status) });
  return resource<D>(link.tag).handledRoute({
    method: 'GET',
    path: link.path,
    operationId: link.operationId,
    summary: link.summary,
    description: link.description,
    ...PUBLIC_PER_IP,
    query: TokenQuery,
    responses: { 200: { description: link.answered, schema: Answer, headers: LINK_HEADERS } },
    errors: link.errors,
    handle: async (ctx, { deps, query, refuse }) => {
      ctx.set(LINK_HEADERS);
      const result = await link.run(deps, query);
      if (!result.ok) throw refuse(result.error);
      ctx.body = { status: result.value } satisfies v.InferOutput<typeof Answer>;
    },
  });
}
