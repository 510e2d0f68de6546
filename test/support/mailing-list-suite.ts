import { expect } from 'chai';
import type { Answer } from './client.js';
import type { HttpServiceOptions } from './http-suite.js';
import { TEST_RATE_LIMITS } from './server.js';

/** The public address the mails of a list link to. */
export const PUBLIC = 'https://dinner.example';
export const DAY = 24 * 60 * 60 * 1000;

/**
 * The options of the HTTP suite of a double-opt-in list: mail captured, the real time (each test moves the clock on
 * from where the one before left it), links to PUBLIC, and X-Forwarded-For trusted, so that a call can come from an
 * IP of its own. `rateLimit` replaces one rule of the test limits: [the rule, the rule instead].
 */
export const listSuiteOptions = (rateLimit: readonly [string, string]): HttpServiceOptions => ({
  mail: true,
  now: new Date(),
  keepTime: true,
  env: { PUBLIC_BASE_URL: PUBLIC, RATE_LIMITS: TEST_RATE_LIMITS.replace(rateLimit[0], rateLimit[1]), TRUST_PROXY: 'true' },
});

/** What an answer shows of itself to someone probing for addresses: status, body and content type. */
export const accepted = (res: Answer) => ({ status: res.status, text: res.text, type: res.headers.get('content-type') });

/** The answer to the first click on a confirmation link: 200 confirmed, not to be cached. */
export function expectConfirmed(res: Answer): void {
  expect(res.status).to.equal(200);
  expect(res.json).to.deep.equal({ status: 'confirmed' });
  expect(res.headers.get('cache-control')).to.equal('no-store');
}
