/**
 * The monthly dinner-price mail from two processes of the service on one Postgres, through one real SMTP server:
 * both run the job `mail-dinner-prices` at the same moment (bootstrap/run-job.ts, the run by hand), and every
 * confirmed address gets the month's mail exactly once, whichever process claimed it; unconfirmed and unsubscribed
 * addresses get none, and a second run sends nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { openDatabase, type Database } from '../../adapters/knex/database.js';
import { knexStores } from '../../bootstrap/stores.js';
import { dinnerPricesCsv, dinnerPricesJson } from '../../core/dinnerprices/publish.js';
import type { PublishedMonth } from '../../core/dinnerprices/types.js';
import type { ListToken } from '../../ports/mailing-list-store.js';
import { databaseKinds, freshSchema } from '../support/databases.js';
import { spawnService, stopProcess, type ServiceProcess } from '../support/service-process.js';
import { startSmtpCapture, type SmtpCapture } from '../support/smtp.js';
import { schemaUrl } from './cluster.js';

const PUBLIC = 'https://dinner.example';
const CONFIRMED = 16;
const figures = (householdType: PublishedMonth['householdType'], median: number): PublishedMonth => ({
  month: '2031-02',
  householdType,
  medianWeekPrice: median,
  p10WeekPrice: median - 80,
  p90WeekPrice: median + 120,
  pricePerPortion: 116.06,
  coverage: 0.9,
  chains: 2,
  weeksMeasured: 4,
  recipeSetVersion: 'set-1',
});
const tokens = (): ListToken[] => [
  { tokenHash: randomBytes(32).toString('hex'), purpose: 'confirm', expiresAt: null },
  { tokenHash: randomBytes(32).toString('hex'), purpose: 'unsubscribe', expiresAt: null },
];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

describe('the monthly dinner-price mail from two processes on one Postgres', function () {
  this.timeout(60_000);
  let db: Database;
  let drop: () => Promise<void>;
  let url: string;
  let smtp: SmtpCapture;
  let dir: string;
  const confirmed: { email: string; language: 'nb' | 'en' }[] = [];
  const notMailed: string[] = [];
  // Mails are held until two are waiting at once (one from each process: each sends one at a time), so the two
  // runs are known to overlap; after that both go on sending side by side.
  let waiting = 0;
  let bothSending!: () => void;
  const overlap = new Promise<void>((resolve) => (bothSending = resolve));

  before(async function () {
    // databaseKinds() throws in CI without DATABASE_URL_PG: there the test must run, never skip.
    if (!databaseKinds().some((k) => k.name === 'postgres')) {
      console.log('    (the cluster tests need Postgres: set DATABASE_URL_PG, e.g. postgres://postgres@127.0.0.1:5432/test)');
      this.skip();
    }
    const pg = process.env['DATABASE_URL_PG']!;
    const schema = await freshSchema(pg, 'mail');
    drop = schema.drop;
    url = schemaUrl(pg, schema.schema);
    db = openDatabase({ kind: 'postgres', url: pg }, { schema: schema.schema });
    await db.migrate();
    dir = mkdtempSync(join(tmpdir(), 'dinner-mail-'));
    smtp = await startSmtpCapture({
      beforeAccept: async () => {
        if (++waiting >= 2) bothSending();
        await Promise.race([overlap, pause(15_000)]);
      },
    });

    // February 2031's figures are published; the list was joined in February.
    const stores = knexStores(db.knex);
    const joined = new Date('2031-02-10T09:00:00.000Z');
    const listed = async (email: string, language: 'nb' | 'en', confirm: boolean) => {
      const id = randomUUID();
      const links = tokens();
      await stores.dinnerPriceSubscribers.add({ id, email, language, createdAt: joined, confirmedAt: null, lastMailedAt: joined, accountId: null }, links);
      if (confirm) await stores.dinnerPriceSubscribers.confirm(links[0]!.tokenHash, joined);
      return id;
    };
    for (let i = 0; i < CONFIRMED; i++) {
      const subscriber = { email: `confirmed.${i}@example.com`, language: i % 2 === 0 ? ('nb' as const) : ('en' as const) };
      await listed(subscriber.email, subscriber.language, true);
      confirmed.push(subscriber);
    }
    for (let i = 0; i < 3; i++) {
      await listed(`unconfirmed.${i}@example.com`, 'nb', false);
      const gone = await listed(`unsubscribed.${i}@example.com`, 'en', true);
      await stores.dinnerPriceSubscribers.remove(gone, 'unsubscribed', joined);
      notMailed.push(`unconfirmed.${i}@example.com`, `unsubscribed.${i}@example.com`);
    }
    const rows = [figures('single', 812.4), figures('couple', 1624.8), figures('family', 2437.2)];
    const at = new Date('2031-03-01T05:00:00.000Z');
    await stores.dinnerPrices.savePublication({ generatedAt: at, json: dinnerPricesJson(rows, at), csv: dinnerPricesCsv(rows) });
  });

  after(async () => {
    await db?.close();
    await drop?.();
    await smtp?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Both processes run the job at once; answers them once both have exited. */
  async function runBoth(): Promise<ServiceProcess[]> {
    const env = { DATABASE_URL: url, SMTP_URL: smtp.url, PUBLIC_BASE_URL: PUBLIC, LOG_LEVEL: 'info', OUTBOX_DIR: join(dir, 'outbox'), BUILD_ID: 'cluster-test' };
    const processes = ['a', 'b'].map((name) => spawnService(env, `process ${name}`, ['bootstrap/run-job.ts', 'mail-dinner-prices']));
    try {
      const exits = await Promise.all(processes.map((p) => p.exited));
      for (const [i, exit] of exits.entries()) expect(exit, processes[i]!.stderr()).to.deep.equal({ code: 0, signal: null });
    } finally {
      await Promise.all(processes.map((p) => stopProcess(p)));
    }
    return processes;
  }
  const mailedLine = (p: ServiceProcess) => p.lines.find((l) => l['msg'] === 'dinner prices mailed');

  it('mails each confirmed address once, from whichever process claimed it first, and none of the others', async () => {
    const processes = await runBoth();
    for (const { email, language } of confirmed) {
      const mails = smtp.to(email);
      expect(mails, email).to.have.length(1);
      expect(mails[0]!.subject).to.equal(language === 'nb' ? 'Middagsprisene for februar 2031' : 'Dinner prices for February 2031');
      expect(mails[0]!.text).to.contain(`${PUBLIC}/api/v1/data/dinner-prices/unsubscribe?token=`);
    }
    for (const email of notMailed) expect(smtp.to(email), email).to.deep.equal([]);
    expect(smtp.mails).to.have.length(CONFIRMED);
    // Both took part: each sent some, and the sum is the list.
    const sent = processes.map((p) => Number(mailedLine(p)?.['sent'] ?? 0));
    expect(sent.every((n) => n > 0), `sent per process: ${sent.join(', ')}`).to.equal(true);
    expect(sent[0]! + sent[1]!).to.equal(CONFIRMED);
    const rows = (await db.knex('dinner_price_mailings').select('month', 'sent_at')) as { month: string; sent_at: Date | null }[];
    expect(rows).to.have.length(CONFIRMED);
    expect(rows.every((r) => r.month === '2031-02' && r.sent_at !== null)).to.equal(true);
  });

  it('a second run of both sends nothing', async () => {
    const processes = await runBoth();
    expect(smtp.mails).to.have.length(CONFIRMED);
    for (const p of processes) {
      expect(mailedLine(p)).to.equal(undefined);
      expect(p.lines.some((l) => l['msg'] === 'job run by hand' && l['job'] === 'mail-dinner-prices')).to.equal(true);
    }
  });
});
