import * as v from 'valibot';
import {
  WAITLIST_EXPIRED_LINK_MEMORY_MS,
  WAITLIST_MAIL_INTERVAL_MS,
  WAITLIST_UNCONFIRMED_LIFETIME_MS,
  confirmWaitlist,
  joinWaitlist,
} from '../../../core/waitlist/waitlist.js';
import { mount, resource, PUBLIC_PER_IP } from '../route.js';
import type { ServiceDeps } from '../deps.js';
import { languageOf } from './accounts.js';
import { days, mailedLinkRoute } from './mailed-link.js';

// Strict: any field besides these answers 400 (names still match case-insensitively, as everywhere).
const WaitlistRequest = v.strictObject({
  // Not length-capped here: whatever is not an address (too long included) answers email_invalid.
  email: v.string(),
  language: v.optional(v.picklist(['nb', 'en'])),
});

const TAG = 'Waitlist';
const { handledRoute } = resource<ServiceDeps>(TAG);

const JOIN_WAITLIST_DOC =
  'Always 202 with an empty body for a well-formed address, whatever the list knew: the answer and its timing say ' +
  'nothing about the address. A new address is listed unconfirmed and gets a confirmation mail carrying a single-use ' +
  'confirm link (`/api/v1/waitlist/confirm?token=`; 256 random bits, stored only as its SHA-256). ' +
  `An unconfirmed address gets another mail, with a fresh link, only when its last one is ${days(WAITLIST_MAIL_INTERVAL_MS)} day old or more ` +
  '(earlier links keep working until one is used); inside the day nothing is sent. A confirmed address, or one an account ' +
  'registered with, gets no mail. ' +
  `An address unconfirmed for over ${days(WAITLIST_UNCONFIRMED_LIFETIME_MS)} days is deleted, and a new request starts afresh. ` +
  'Registering an account with a listed address turns its row into the account\'s (it no longer expires); DELETE /api/v1/me ' +
  'deletes it. The mail is in `language` (nb or en) when sent, else English when Accept-Language prefers English over ' +
  'Norwegian, else Norwegian (bokmål). ' +
  'A value of email that is not an address (over 254 characters included) answers 400 email_invalid; a body that is not ' +
  'exactly email and an optional language answers 400 validation_failed. Nothing is stored or mailed on a 400. ' +
  'Counted per client IP in the anonymous-per-ip class.';
const CONFIRM_WAITLIST_DOC =
  '200 confirmed, once: the click spends the link, and every other link mailed to the address. ' +
  `410 waitlist_token_expired for a link of an address that stayed unconfirmed for over ${days(WAITLIST_UNCONFIRMED_LIFETIME_MS)} days ` +
  `(expired links are remembered, as hashes without the address, for ${days(WAITLIST_EXPIRED_LINK_MEMORY_MS)} days, then answer 404). ` +
  '404 waitlist_token_unknown for a token never issued, a link used already (a second click of the same link, or any link ' +
  'of an address confirmed since), and a link of an address deleted with its account. ' +
  'Counted per client IP in the anonymous-per-ip class.';

const joinWaitlistRoute = handledRoute({
  method: 'POST',
  path: '/api/v1/waitlist',
  operationId: 'joinWaitlist',
  summary: 'Put an address on the waitlist (Public)',
  description: JOIN_WAITLIST_DOC,
  ...PUBLIC_PER_IP,
  body: WaitlistRequest,
  responses: { 202: { description: 'Accepted (empty body)' } },
  errors: ['email-invalid'],
  handle: async (ctx, { deps, body, refuse }) => {
    const result = await joinWaitlist(deps, { email: body.email, language: body.language ?? languageOf(ctx.get('Accept-Language')) });
    if (!result.ok) throw refuse(result.error);
    // null first: Koa would otherwise write the status text as a body.
    ctx.body = null;
    ctx.status = 202;
  },
});

const confirmWaitlistRoute = mailedLinkRoute({
  tag: TAG,
  path: '/api/v1/waitlist/confirm',
  operationId: 'confirmWaitlist',
  summary: 'Confirm a waitlisted address with its mailed link (Public: the token is the proof)',
  description: CONFIRM_WAITLIST_DOC,
  status: 'confirmed',
  answered: 'Confirmed',
  errors: ['waitlist-token-unknown', 'waitlist-token-expired'],
  run: confirmWaitlist,
});

export const waitlistRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    joinWaitlistRoute,
    confirmWaitlistRoute,
  ]);

