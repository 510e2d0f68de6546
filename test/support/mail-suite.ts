import { expect } from 'chai';
import type { RuntimeOptions } from '../../bootstrap/runtime.js';
import type { Answer } from './client.js';
import type { DatabaseKind } from './databases.js';
import { startTestServer, type TestServer } from './server.js';
import { startSmtpCapture, type SmtpCapture } from './smtp.js';

/**
 * The service of a suite, mailing through a real SMTP capture: both started before the suite's first test and
 * stopped after its last. Read `server` and `smtp` inside tests (they are set by then).
 */
export function serviceWithMailCapture(kind: DatabaseKind, env: Record<string, string>, options: RuntimeOptions = {}): { server: TestServer; smtp: SmtpCapture } {
  const suite = {} as { server: TestServer; smtp: SmtpCapture };
  before(async () => {
    suite.smtp = await startSmtpCapture();
    suite.server = await startTestServer(kind, { ...env, SMTP_URL: suite.smtp.url }, options);
  });
  after(async () => {
    await suite.server.stop();
    await suite.smtp.close();
  });
  return suite;
}

/** The answer is a problem+json of this status and code. */
export function expectProblem(res: Answer, status: number, code: string): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  expect(res.json.code).to.equal(code);
}

let lastIp = 0;
/** A client address no other call of this process used (for X-Forwarded-For under TRUST_PROXY=true). */
export const freshIp = () => `203.0.${Math.floor(++lastIp / 250) % 256}.${(lastIp % 250) + 1}`;
