import * as v from 'valibot';
import {
  ACCESS_TOKEN_DAYS,
  ACCESS_TOKEN_NAME_MAX,
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKENS_MAX_LIVE,
  accessTokensOf,
  createAccessToken,
  revokeAccessToken,
  type AccessTokenDeps,
} from '../../../core/households/access-tokens.js';
import { ACCESS_TOKEN_SCOPES, type ListedAccessToken } from '../../../core/households/types.js';
import { created, mount, noContent, resource } from '../route.js';
import { IsoDateTime, Uuid } from '../schemas.js';

const PATH = '/api/v1/me/access-tokens';
const D = ACCESS_TOKEN_DAYS;

const Scope = v.pipe(v.picklist(ACCESS_TOKEN_SCOPES), v.description('read: GET only; read-write: also the household\'s writing routes.'));

const CreateAccessTokenRequest = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be blank'), v.maxLength(ACCESS_TOKEN_NAME_MAX, `at most ${ACCESS_TOKEN_NAME_MAX} characters`), v.description('What the token is for, in the person\'s words ("Kitchen display").')),
  householdId: v.pipe(Uuid, v.description('A household the caller is a member of: the only one the token reaches.')),
  scope: Scope,
  expiresInDays: v.optional(
    v.pipe(v.number(), v.integer('a whole number'), v.minValue(D.min, `at least ${D.min}`), v.maxValue(D.max, `at most ${D.max}`), v.description(`Days until the token expires, ${D.min} to ${D.max}; ${D.default} when left out.`)),
  ),
});

const AccessTokenResponse = v.object({
  id: Uuid,
  name: v.string(),
  householdId: Uuid,
  householdName: v.string(),
  scope: Scope,
  createdAt: IsoDateTime,
  expiresAt: IsoDateTime,
  lastUsedAt: v.pipe(v.nullable(IsoDateTime), v.description('The last request made with it, at most a minute behind; null until it is used.')),
  state: v.pipe(
    v.picklist(['active', 'expired', 'not-a-member']),
    v.description('active: it works; expired: past expiresAt; not-a-member: its person is no longer a member of its household, so it no longer works.'),
  ),
});
const CreatedAccessTokenResponse = v.object({
  secret: v.pipe(v.string(), v.description(`The token to send as Authorization: Bearer <secret>, starting ${ACCESS_TOKEN_PREFIX}. Shown this once: only its SHA-256 is kept.`)),
  token: AccessTokenResponse,
});

type Answer = v.InferOutput<typeof AccessTokenResponse>;

const { route } = resource<AccessTokenDeps>('Access tokens');

const TOKENS_DOC =
  'Personal access tokens let a script, a home automation or an assistant act as the person in ONE household they are a ' +
  'member of, sent as Authorization: Bearer <secret>. A read token may call the GET operations a token may call ' +
  '(x-token-access: read); a read-write token also the writing ones (x-token-access: read-write). A token never reaches ' +
  "another household (404 household_not_found, as for anyone not a member), nor the account's and security's operations " +
  '(password, e-mail, sign-ins, these token operations, deleting the account or the household, invites and members) ' +
  "nor anything that is not a household's data: 403 token_not_for_route. These operations take the session cookie only.";

const state = (t: ListedAccessToken, now: Date): Answer['state'] => (!t.member ? 'not-a-member' : t.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active');
const toAnswer = (t: ListedAccessToken, now: Date): Answer => ({
  id: t.id,
  name: t.name,
  householdId: t.householdId,
  householdName: t.householdName,
  scope: t.scope,
  createdAt: t.createdAt.toISOString(),
  expiresAt: t.expiresAt.toISOString(),
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  state: state(t, now),
});

const listRoute = route({
  method: 'GET',
  path: PATH,
  operationId: 'listAccessTokens',
  summary: "The caller's personal access tokens",
  description: `Newest first; an expired token stays listed for 30 days after it expired. ${TOKENS_DOC}`,
  responses: { 200: { description: 'The tokens, without their secrets', schema: v.array(AccessTokenResponse) } },
  run: async ({ deps, caller }) => ({ ok: true, value: await accessTokensOf(deps, caller.account) }),
  reply: (tokens, { deps }) => tokens.map((t) => toAnswer(t, deps.clock.now())),
});

const createRoute = route({
  method: 'POST',
  path: PATH,
  operationId: 'createAccessToken',
  summary: 'Make a personal access token for one of the caller\'s households',
  description:
    `The answer holds the secret, shown this once. A household the caller is not a member of is 404 household_not_found. An account ` +
    `holds at most ${ACCESS_TOKENS_MAX_LIVE} unexpired tokens (409 access_token_limit). ${TOKENS_DOC}`,
  body: CreateAccessTokenRequest,
  ...created('The token and its secret', CreatedAccessTokenResponse),
  errors: ['household-not-found', 'access-token-limit'],
  run: ({ deps, caller, body }) => createAccessToken(deps, caller.account, body),
  reply: (made, { deps }) => ({ secret: made.secret, token: toAnswer(made.token, deps.clock.now()) }),
});

const revokeRoute = route({
  method: 'DELETE',
  path: `${PATH}/{tokenId}`,
  operationId: 'revokeAccessToken',
  summary: 'Revoke a personal access token',
  description: 'The next request made with it is refused (401 token_invalid), whichever process of the service answers it. A token the caller does not have is 404 access_token_not_found.',
  params: v.object({ tokenId: Uuid }),
  ...noContent('Revoked'),
  errors: ['access-token-not-found'],
  run: ({ deps, caller, params }) => revokeAccessToken(deps, caller.account, params.tokenId),
});

export const accessTokenRoutes = (deps: AccessTokenDeps) => mount(deps, [listRoute, createRoute, revokeRoute]);
