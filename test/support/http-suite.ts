import { expect } from 'chai';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { jobsOf, runExclusive } from '../../bootstrap/jobs.js';
import type { RuntimeOptions } from '../../bootstrap/runtime.js';
import { Client, signedInClient, type Answer } from './client.js';
import { databaseKinds, type DatabaseKind } from './databases.js';
import { ownedHousehold } from './household.js';
import { captureLog, startTestServer, type CapturedLog, type TestServer } from './server.js';
import { plannedWeek } from './shopping.js';
import { startSmtpCapture, type SmtpCapture } from './smtp.js';

export type Env = Record<string, string>;
export type SuiteClock = ReturnType<typeof fixedClock>;

export interface HttpServiceOptions {
  /**
   * What the environment would say. A function is called in the suite's `before`, once the mail capture is up:
   * for what is known only then (the port of a fake provider the function starts).
   */
  env?: Env | (() => Env | Promise<Env>);
  /** The runtime's overrides; the log is the suite's own (`log`) unless a logger is given. A function is called as `env`'s is, after it. */
  runtime?: RuntimeOptions | (() => RuntimeOptions | Promise<RuntimeOptions>);
  /** The service's clock is `clock`, fixed at `now` and set back to it before each test. */
  now?: Date;
  /** The clock is not set back: each test moves it on from where the one before left it. */
  keepTime?: boolean;
  /** A real SMTP capture (`smtp`) the service mails through (SMTP_URL). */
  mail?: boolean;
}

/** The real service of a suite on a free loopback port, and what its tests do to it. Read it inside tests. */
export interface HttpService extends Omit<TestServer, 'stop'> {
  readonly kind: DatabaseKind;
  /** The service's clock (with `now`). */
  readonly clock: SuiteClock;
  /** The mail the service sent (with `mail`). */
  readonly smtp: SmtpCapture;
  /** What the service logged (unless the runtime was given a logger of its own). */
  readonly log: CapturedLog;
  /** A client with no session yet. */
  client(): Client;
  /** A new account, registered and signed in. */
  signedIn(displayName?: string): ReturnType<typeof signedInClient>;
  /** A household of a new Owner, with `join(role)` for more members. */
  household(name?: string): ReturnType<typeof ownedHousehold>;
  /** A household with the plan of the week starting `monday` and the path of its shopping list. */
  plannedWeek(monday: string): ReturnType<typeof plannedWeek>;
  /** Runs the service's job `name` as its schedule would (holding the job's lock), and expects it to have run. */
  runJob(name: string): Promise<void>;
}

/**
 * The hooks of one service in the describe this is called in: the mail capture and the service started before its
 * first test, stopped after its last; the clock set back before each test.
 */
export function httpService(kind: DatabaseKind, options: HttpServiceOptions = {}): HttpService {
  let server: TestServer | undefined;
  let smtp: SmtpCapture | undefined;
  const log = captureLog();
  const clock = options.now ? fixedClock(options.now) : undefined;
  before(async () => {
    if (options.mail) smtp = await startSmtpCapture();
    const env = typeof options.env === 'function' ? await options.env() : (options.env ?? {});
    const overrides = typeof options.runtime === 'function' ? await options.runtime() : options.runtime;
    const runtime: RuntimeOptions = { logger: log.logger, ...(clock ? { clock } : {}), ...overrides };
    server = await startTestServer(kind, { ...env, ...(smtp ? { SMTP_URL: smtp.url } : {}) }, runtime);
  });
  if (clock && !options.keepTime) beforeEach(() => clock.set(options.now!));
  after(async () => {
    try {
      await server?.stop();
    } catch {
      // A test may have closed the database itself (the readiness probe's); what the suite made is still dropped.
      await server?.database.cleanup();
    }
    await smtp?.close();
  });
  const started = () => {
    if (!server) throw new Error('the suite has not started');
    return server;
  };
  const service: HttpService = {
    kind,
    log,
    get url() {
      return started().url;
    },
    get runtime() {
      return started().runtime;
    },
    get config() {
      return started().config;
    },
    get database() {
      return started().database;
    },
    get clock() {
      if (!clock) throw new Error('the suite has no clock of its own: give it `now`');
      return clock;
    },
    get smtp() {
      if (!smtp) throw new Error('the suite has no mail capture: give it `mail: true`');
      return smtp;
    },
    client: () => new Client(service.url),
    signedIn: (displayName) => signedInClient(service.url, displayName),
    household: (name) => ownedHousehold(service.url, name),
    plannedWeek: (monday) => plannedWeek(service.url, monday),
    async runJob(name) {
      const job = jobsOf(service.runtime).find((j) => j.name === name);
      if (!job) throw new Error(`no job ${name}`);
      expect(await runExclusive(service.runtime.db, service.runtime.logger, job), `${name} ran`).to.equal(true);
    },
  };
  return service;
}

/** `body` once per database the suite runs on (SQLite, and Postgres when DATABASE_URL_PG is set), in `<title> [<database>]`. */
export function eachDatabase(title: string, body: (this: Mocha.Suite, kind: DatabaseKind) => void): void {
  for (const kind of databaseKinds()) {
    describe(`${title} [${kind.name}]`, function () {
      body.call(this, kind);
    });
  }
}

/**
 * An HTTP suite: the real service (Koa over a real socket) on each database, as `httpService` starts it, for
 * `body`'s tests. `options` may depend on the database.
 */
export function httpSuite(title: string, options: HttpServiceOptions | ((kind: DatabaseKind) => HttpServiceOptions), body: (this: Mocha.Suite, server: HttpService) => void): void {
  eachDatabase(title, function (kind) {
    body.call(this, httpService(kind, typeof options === 'function' ? options(kind) : options));
  });
}

/** The answer has this status, and this problem `code` when one is given. */
export function expectStatus(res: Answer, status: number, code?: string): void {
  expect(res.status, res.text).to.equal(status);
  if (code) expect(res.json.code, res.text).to.equal(code);
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
