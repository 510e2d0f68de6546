import * as v from 'valibot';
import { signInsOf, unlinkSignIn } from '../../../core/accounts/sign-ins.js';
import type { IdentityStore } from '../../../ports/identity-store.js';
import { problemFor } from '../problem.js';
import { defineRoute, type AnyRoute } from '../route.js';
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

/**
 * The ways the signed-in person signs in: a password or not, and the providers linked to the account (a provider
 * is linked by signing in with it once, the challenge route). No written rule asks for these routes: they are what a
 * well-made service lets a person see and undo about their own account.
 */
export function signInRoutes(deps: { identities: IdentityStore }, providers: readonly NamedProvider[]): AnyRoute[] {
  const tag = 'Account and sign-in';
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/me/sign-ins',
      operationId: 'listSignIns',
      summary: "How the caller's account signs in: password, and linked providers",
      description:
        'The providers linked to the account, oldest first, each with the configured provider of its issuer (null when ' +
        "none is configured now, or for the app's native sign-in). A provider is linked the first time the person signs " +
        'in with it (GET /api/v1/auth/challenge/{provider}).',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      responses: { 200: { description: 'The sign-ins', schema: SignInsResponse } },
      handler: async (ctx, { caller }) => {
        const found = await signInsOf(deps, caller.account);
        ctx.body = {
          hasPassword: found.hasPassword,
          identities: found.identities.map((i) => {
            const p = providers.find((x) => sameIssuer(x.issuer, i.issuer));
            return { issuer: i.issuer, subject: i.subject, provider: p ? { scheme: p.scheme, displayName: p.displayName } : null, email: i.email, linkedAt: i.createdAt.toISOString() };
          }),
        } satisfies v.InferOutput<typeof SignInsResponse>;
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/me/sign-ins',
      operationId: 'unlinkSignIn',
      summary: 'Unlink a provider from the caller\'s account',
      description:
        'issuer and subject as GET /api/v1/me/sign-ins lists them. The account keeps a way in: without a password, its ' +
        'last linked provider answers 409 last_sign_in (set a password first). A link the account does not have is 404 ' +
        'sign_in_not_found. Two removals at once never both take the last two links. Signing in with the provider again links it anew.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      query: UnlinkQuery,
      responses: { 204: { description: 'Unlinked' } },
      problems: { sign_in_not_found: 404, last_sign_in: 409 },
      handler: async (ctx, { caller, query }) => {
        const result = await unlinkSignIn(deps, caller.account, query);
        if (!result.ok) throw problemFor(result.error);
        ctx.status = 204;
      },
    }),
  ];
}
