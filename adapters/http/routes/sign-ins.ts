import * as v from 'valibot';
import { signInsOf, unlinkSignIn } from '../../../core/accounts/sign-ins.js';
import type { IdentityStore } from '../../../ports/identity-store.js';
import { mount, noContent, resource } from '../route.js';
import { IsoDateTime } from '../schemas.js';

/** A configured provider (AUTH_PROVIDERS) as the account screen names it. */
export interface NamedProvider {
  readonly scheme: string;
  readonly displayName: string;
  readonly issuer: string;
}

const Provider = v.object({ scheme: v.string(), displayName: v.string() });
const SignInsResponse = v.object({
  hasPassword: v.boolean(),
  identities: v.array(
    v.object({
      issuer: v.string(),
      subject: v.string(),
      provider: v.pipe(v.nullable(Provider), v.description('The configured provider with this issuer; null for one no longer configured, or the app sign-in')),
      email: v.nullable(v.string()),
      linkedAt: IsoDateTime,
    }),
  ),
});
const Bounded = v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(2048, 'at most 2048 characters'));
const UnlinkQuery = v.object({ issuer: Bounded, subject: Bounded });

// Issuers are compared as OpenID Connect compares them, save a trailing slash people add or leave off in config.
const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

const { route, handledRoute } = resource<{ identities: IdentityStore } & { readonly providers: readonly NamedProvider[] }>('Account and sign-in');

const LIST_SIGN_INS_DOC =
  'The providers linked to the account, oldest first, each with the configured provider of its issuer (null when ' +
  "none is configured now, or for the app's native sign-in). A provider is linked the first time the person signs " +
  'in with it (GET /api/v1/auth/challenge/{provider}).';
const UNLINK_SIGN_IN_DOC =
  'issuer and subject as GET /api/v1/me/sign-ins lists them. The account keeps a way in: without a password, its ' +
  'last linked provider answers 409 last_sign_in (set a password first). A link the account does not have is 404 ' +
  'sign_in_not_found. Two removals at once never both take the last two links. Signing in with the provider again links it anew.';

const listSignInsRoute = handledRoute({
  method: 'GET',
  path: '/api/v1/me/sign-ins',
  operationId: 'listSignIns',
  summary: "How the caller's account signs in: password, and linked providers",
  description: LIST_SIGN_INS_DOC,
  responses: { 200: { description: 'The sign-ins', schema: SignInsResponse } },
  handle: async (ctx, { deps, caller }) => {
    const found = await signInsOf(deps, caller.account);
    ctx.body = {
      hasPassword: found.hasPassword,
      identities: found.identities.map((i) => {
        const p = deps.providers.find((x) => sameIssuer(x.issuer, i.issuer));
        return { issuer: i.issuer, subject: i.subject, provider: p ? { scheme: p.scheme, displayName: p.displayName } : null, email: i.email, linkedAt: i.createdAt.toISOString() };
      }),
    } satisfies v.InferOutput<typeof SignInsResponse>;
  },
});

const unlinkSignInRoute = route({
  method: 'DELETE',
  path: '/api/v1/me/sign-ins',
  operationId: 'unlinkSignIn',
  summary: 'Unlink a provider from the caller\'s account',
  description: UNLINK_SIGN_IN_DOC,
  query: UnlinkQuery,
  ...noContent('Unlinked'),
  errors: ['sign-in-not-found', 'last-sign-in'],
  run: ({ deps, caller, query }) => unlinkSignIn(deps, caller.account, query),
});

export const signInRoutes = (deps: { identities: IdentityStore }, providers: readonly NamedProvider[]) =>
  mount({ ...deps, providers }, [
    listSignInsRoute,
    unlinkSignInRoute,
  ]);

