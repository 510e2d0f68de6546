import type { Account } from '../core/accounts/types.js';
import type { AccessToken, ListedAccessToken } from '../core/households/types.js';
import type { AccountId } from '../core/kernel/ids.js';

/** A token found by its secret's hash: its account, and whether that account is still a member of its household. */
export interface FoundAccessToken {
  readonly token: AccessToken;
  readonly account: Account;
  readonly member: boolean;
}

/**
 * The personal access tokens of accounts (core/households/access-tokens.ts). A token goes with its account and with
 * its household.
 */
export interface AccessTokenStore {
  /**
   * Keeps a new token unless its account already holds `maxLive` tokens unexpired at `now` ('limit'; two makings at
   * once cannot both pass the limit); 'gone' when its account or household went meanwhile.
   */
  create(token: AccessToken, limit: { readonly maxLive: number; readonly now: Date }): Promise<'created' | 'limit' | 'gone'>;
  /** The account's tokens, expired ones included, newest first, each with its household's name. */
  listOf(accountId: AccountId): Promise<ListedAccessToken[]>;
  /** Removes one of the account's tokens; false when the account has no token of that id. */
  revoke(accountId: AccountId, tokenId: string): Promise<boolean>;
  /**
   * The token whose secret has this hash, with its account; null when there is none (revoked, or its account or
   * household gone). Read from the database every time, never from a process's read cache: a revocation made by any
   * process counts from the next request on, whatever process answers it.
   */
  lookup(tokenHash: string): Promise<FoundAccessToken | null>;
  /** Notes that the token was used at `at`, unless a use since `notBefore` was noted already. */
  touch(tokenId: string, at: Date, notBefore: Date): Promise<void>;
  /** Removes the tokens that expired before `before`; answers how many went. */
  deleteExpired(before: Date): Promise<number>;
}
