/** An answer kept for a key, to be given again to a retry of the same request. */
export interface KeptAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

/** What claiming a key found. */
export type IdempotencyClaim =
  /** The key is this request's now: answer it, then `keep` the answer (or `release` the key). */
  | { readonly kind: 'claimed' }
  /** The same request was answered already: give the kept answer again. */
  | { readonly kind: 'answered'; readonly answer: KeptAnswer }
  /** The same request is being answered right now. */
  | { readonly kind: 'in-progress' }
  /** The key was first used for another request (another route, or another body). */
  | { readonly kind: 'other-request' };

/**
 * The Idempotency-Keys of each login (a session's token hash): a key belongs to the login and the request that first
 * used it, and is forgotten after a day (`since`), or when the login ends. Claims of one key are atomic: of two
 * at the same moment, one is 'claimed' and the other finds it 'in-progress'.
 */
export interface IdempotencyStore {
  /**
   * Claims `key` for the request (`request`: method and path; `fingerprint`: a digest of its body), unless the
   * login holds it from `since` on. A claim still unanswered from before `abandonedBefore` (its process died) is
   * taken over.
   */
  claim(login: string, key: string, request: { readonly request: string; readonly fingerprint: string }, at: { readonly now: Date; readonly since: Date; readonly abandonedBefore: Date }): Promise<IdempotencyClaim>;
  /** Keeps the answer of a claimed key. */
  keep(login: string, key: string, answer: KeptAnswer): Promise<void>;
  /** Lets go of a claimed key that has no answer to keep (the request failed): a retry runs it again. */
  release(login: string, key: string): Promise<void>;
  /** Forgets every key claimed before `before`; answers how many. */
  forgetBefore(before: Date): Promise<number>;
}
