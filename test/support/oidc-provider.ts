import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';

/** What the provider says about a person who signs in with `login`. */
export interface TestUser {
  readonly email?: string;
  readonly email_verified?: boolean;
  readonly name?: string;
}

export interface TestOidcProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** People by login; an unknown login signs in as `<login>@example.com`, verified, named after the login. */
  readonly users: Map<string, TestUser>;
  /**
   * Goes through the authorization URL as a browser would, carrying the provider's cookies: signs in as `login`
   * and consents (or declines, with `{ decline: true }`). Answers the URL the provider sends the browser back to.
   */
  authorize(authorizationUrl: string, who: string | { decline: true }): Promise<URL>;
  stop(): Promise<void>;
}

// oidc-provider ships no type declarations: the little of it used here, typed by hand.
interface Interaction {
  uid: string;
  params: Record<string, string | undefined>;
}
interface OidcProvider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  Grant: new (init: { accountId: string; clientId: string }) => { addOIDCScope(scope: string): void; save(): Promise<string> };
}
type ProviderClass = new (issuer: string, configuration: Record<string, unknown>) => OidcProvider;

/**
 * A real OpenID Provider (oidc-provider) on a loopback port, with one confidential client whose redirect URI is
 * `redirectUri`. Its interaction (login and consent) is a URL of this harness: `authorize` visits it with the
 * login instead of filling in pages, so the rest is the real protocol over HTTP.
 */
export async function startOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const specifier = 'oidc-provider';
  const { default: Provider } = (await import(specifier)) as { default: ProviderClass };
  const users = new Map<string, TestUser>();
  const clientId = 'dinner-planner';
  const clientSecret = 'a-client-secret-for-tests-only';

  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test-signing-key', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: ['a-cookie-key-for-tests-only'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    interactions: { url: (_ctx: unknown, interaction: Interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, id: string) {
      const user = users.get(id) ?? { email: `${id}@example.com`, email_verified: true, name: `Person ${id}` };
      return { accountId: id, claims: async () => ({ sub: id, ...user }) };
    },
  });
  const oidc = provider.callback();

  // The interaction a login page would end with: login and consent to what the client asked for, or declined.
  const interaction = async (req: IncomingMessage, res: ServerResponse) => {
    const query = new URL(req.url ?? '/', issuer).searchParams;
    const details = await provider.interactionDetails(req, res);
    if (query.get('decline') === '1') {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'declined in the test' }, { mergeWithLastSubmission: false });
      return;
    }
    const accountId = query.get('login') ?? 'nobody';
    const grant = new provider.Grant({ accountId, clientId: details.params['client_id'] ?? clientId });
    grant.addOIDCScope(details.params['scope'] ?? 'openid');
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  };
  handle = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((err: unknown) => res.writeHead(500).end(String(err)));
      return;
    }
    oidc(req, res);
  };

  return {
    issuer,
    clientId,
    clientSecret,
    users,
    async authorize(authorizationUrl, who) {
      const jar = new CookieJar();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 10; hop++) {
        if (url.origin !== issuer) return url;
        const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.headerFor(url) } });
        jar.store(url, res.headers.getSetCookie());
        const body = await res.text();
        const location = res.headers.get('location');
        if (res.status < 300 || res.status > 399 || location === null) throw new Error(`the provider answered ${res.status} at ${url.pathname}: ${body.slice(0, 300)}`);
        url = new URL(location, url);
        if (url.origin === issuer && url.pathname.startsWith('/interaction/')) {
          if (typeof who === 'string') url.searchParams.set('login', who);
          else url.searchParams.set('decline', '1');
        }
      }
      throw new Error('the provider redirected too often');
    },
    stop: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

/** Just enough of a browser's cookie handling for one provider: names, paths, removal. */
class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  store(from: URL, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const attr = (n: string) => attrs.find((a) => a.toLowerCase().startsWith(`${n}=`))?.slice(n.length + 1);
      const path = attr('path') ?? from.pathname.replace(/\/[^/]*$/, '/');
      const expires = attr('expires');
      const gone = attr('max-age') === '0' || value === '' || (expires !== undefined && new Date(expires).getTime() < Date.now());
      const key = `${name};${path}`;
      if (gone) this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  headerFor(url: URL): string {
    return [...this.cookies]
      .filter(([, c]) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([key, c]) => `${key.slice(0, key.indexOf(';'))}=${c.value}`)
      .join('; ');
  }
}
