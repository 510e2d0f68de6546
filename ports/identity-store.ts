import type { AccountId } from '../core/kernel/ids.js';

/**
 * Sign-in through someone else's identity: the identities linked to accounts, the sign-in flows under way
 * between the challenge and the provider's callback, and the one-time codes that hand an app its session.
 */

/** An identity vouched for by a provider, tied to one account. */
export interface LinkedIdentity {
  /** The provider, named by its issuer: subjects are unique per issuer (OpenID Connect Core 2). */
  readonly issuer: string;
  /** The provider's stable id of the person (`sub`). */
  readonly subject: string;
  readonly accountId: AccountId;
  /** The address the provider gave at linking, for support; never used to sign in. */
  readonly email: string | null;
  readonly createdAt: Date;
}

export interface IdentityStore {
  /** 'taken' when (issuer, subject) is linked already, to this or another account. */
  link(identity: LinkedIdentity): Promise<'linked' | 'taken'>;
  find(issuer: string, subject: string): Promise<LinkedIdentity | null>;
  /** Oldest first. */
  identitiesOf(accountId: AccountId): Promise<LinkedIdentity[]>;
  /**
   * Removes the account's link to (issuer, subject), unless `keepOne` and it is the account's only link (answered
   * 'last'); one statement, so two removals at once cannot both take the last two. 'none' when there was no such link.
   */
  unlink(accountId: AccountId, issuer: string, subject: string, keepOne: boolean): Promise<'unlinked' | 'none' | 'last'>;
}

/** What must survive between the challenge and the callback of one social sign-in. */
export interface SignInFlow {
  /** Hash of the `state` sent to the provider (the state itself is never stored). */
  readonly stateHash: string;
  /** The configured scheme that was challenged. */
  readonly provider: string;
  /** PKCE between this server and the provider. */
  readonly codeVerifier: string;
  readonly nonce: string;
  /** Site-relative path the browser returns to. */
  readonly returnUrl: string;
  /** Set for the app flow: where the app waits, and its PKCE challenge (S256) for the exchange. */
  readonly app: { readonly redirectUri: string; readonly codeChallenge: string } | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export interface SignInFlowStore {
  save(flow: SignInFlow): Promise<void>;
  /**
   * Removes the flow and answers it, expired or not; of several concurrent takes of one state exactly one gets
   * it, the others null.
   */
  take(stateHash: string): Promise<SignInFlow | null>;
  /** Removes flows that expired before `now`; answers how many went. */
  deleteExpired(now: Date): Promise<number>;
}

/** A one-time code that an app trades, with the verifier of its PKCE challenge, for a session. */
export interface SignInCode {
  /** Hash of the code handed to the app. */
  readonly codeHash: string;
  readonly accountId: AccountId;
  /** The app's S256 code challenge, given at the challenge. */
  readonly codeChallenge: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export interface SignInCodeStore {
  save(code: SignInCode): Promise<void>;
  /** As SignInFlowStore.take: removes and answers, exactly once. */
  take(codeHash: string): Promise<SignInCode | null>;
  deleteExpired(now: Date): Promise<number>;
}
