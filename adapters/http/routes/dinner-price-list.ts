import * as v from 'valibot';
import {
  CONFIRMATION_MAIL_INTERVAL_MS,
  LEFT_LINK_MEMORY_MS,
  UNCONFIRMED_LIFETIME_MS,
  confirmDinnerPrices,
  subscribeToDinnerPrices,
  unsubscribeFromDinnerPrices,
} from '../../../core/publicdata/dinner-price-list.js';
import { mount, resource } from '../route.js';
import type { ServiceDeps } from '../deps.js';
import { days, mailedLinkRoute } from './mailed-link.js';

// Strict: any field besides these two answers 400 (names still match case-insensitively, as everywhere).
const DinnerPriceSubscribeRequest = v.strictObject({
  // Not length-capped here: whatever is not an address (too long included) answers email_invalid.
  email: v.string(),
  language: v.picklist(['nb', 'en']),
});

const TAG = 'Dinner-price list';
const { route } = resource<ServiceDeps>(TAG);

const base = '/api/v1/data/dinner-prices';

const SUBSCRIBE_TO_DINNER_PRICES_DOC =
  'Always 202 with an empty body, whatever the list knew: the answer and its timing say nothing about the address. ' +
  'A new address is listed unconfirmed and gets a confirmation mail in the asked language, carrying a confirm link ' +
  'and an unsubscribe link, each with a token of its own (256 random bits, stored only as its SHA-256). ' +
  `An unconfirmed address gets another mail, with fresh links, only when its last one is ${days(CONFIRMATION_MAIL_INTERVAL_MS)} day old or more ` +
  '(earlier links keep working); inside the day nothing is sent. A confirmed address gets no mail and keeps its language. ' +
  `An address unconfirmed for over ${days(UNCONFIRMED_LIFETIME_MS)} days is deleted, and a new subscribe starts afresh. ` +
  'A confirmed address gets one mail with the figures of each month that ends while it is listed (per household type: ' +
  'median week price, p10–p90 and price per portion, in NOK, in its language, with an unsubscribe link of its own), ' +
  'sent by an hourly job once the month is published, early the next month: an address confirmed today first gets ' +
  "this month's figures, never earlier months', and after an outage only the newest month is sent. " +
  'The body takes exactly email and language; any other field answers 400 validation_failed. ' +
  'Counted per client IP in the dinner-price-signup-per-ip class (5 an hour by default).';
const CONFIRM_DINNER_PRICES_DOC =
  'Answers confirmed on every click while the address is listed. ' +
  `410 dinner_price_token_expired once the address stayed unconfirmed for over ${days(UNCONFIRMED_LIFETIME_MS)} days (it is deleted); ` +
  '404 dinner_price_token_unknown for a token never issued, an unsubscribe token, or any link of an address that unsubscribed. ' +
  `Links of an address that left are remembered (as hashes, without the address) for ${days(LEFT_LINK_MEMORY_MS)} days, then answer 404. ` +
  'Counted per client IP in the anonymous-per-ip class.';
const UNSUBSCRIBE_FROM_DINNER_PRICES_DOC =
  'Deletes the address (nothing is kept of it). A repeat click, or a click after the address expired, answers ' +
  'unsubscribed again; 404 dinner_price_token_unknown only for a token never issued (or forgotten, ' +
  `${days(LEFT_LINK_MEMORY_MS)} days after the address left) or a confirm token. Counted per client IP in the anonymous-per-ip class.`;

const subscribeToDinnerPricesRoute = route({
  method: 'POST',
  path: `${base}/subscribe`,
  operationId: 'subscribeToDinnerPrices',
  summary: 'Put an address on the dinner-price list (Public)',
  description: SUBSCRIBE_TO_DINNER_PRICES_DOC,
  auth: 'public',
  rateLimit: 'dinner-price-signup-per-ip',
  body: DinnerPriceSubscribeRequest,
  responses: { 202: { description: 'Accepted (empty body)' } },
  errors: ['email-invalid'],
  run: ({ deps, body }) => subscribeToDinnerPrices(deps, body),
  reply: () => null,
  status: 202,
});

const confirmDinnerPricesRoute = mailedLinkRoute({
  tag: TAG,
  path: `${base}/confirm`,
  operationId: 'confirmDinnerPrices',
  summary: 'Confirm an address with its mailed link (Public: the token is the proof)',
  description: CONFIRM_DINNER_PRICES_DOC,
  status: 'confirmed',
  answered: 'Confirmed',
  errors: ['dinner-price-token-unknown', 'dinner-price-token-expired'],
  run: confirmDinnerPrices,
});

const unsubscribeFromDinnerPricesRoute = mailedLinkRoute({
  tag: TAG,
  path: `${base}/unsubscribe`,
  operationId: 'unsubscribeFromDinnerPrices',
  summary: 'Take an address off the dinner-price list with its mailed link (Public: the token is the proof)',
  description: UNSUBSCRIBE_FROM_DINNER_PRICES_DOC,
  status: 'unsubscribed',
  answered: 'Unsubscribed',
  errors: ['dinner-price-token-unknown'],
  run: unsubscribeFromDinnerPrices,
});

export const dinnerPriceListRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    subscribeToDinnerPricesRoute,
    confirmDinnerPricesRoute,
    unsubscribeFromDinnerPricesRoute,
  ]);

