import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { uuidIds } from '../../adapters/crypto/node-crypto.js';
import { memoryMailer } from '../../adapters/mail/memory.js';
import { emptyTables, memoryAccountStore, memoryHouseholdStore } from '../../adapters/memory/stores.js';
import { memoryFeedbackStore } from '../../adapters/memory/feedback-store.js';
import type { Account } from '../../core/accounts/types.js';
import { submitFeedback, type FeedbackDeps, type FeedbackInput } from '../../core/feedback/submit-feedback.js';
import type { FailedCall } from '../../core/feedback/types.js';
import type { Mailer } from '../../ports/mailer.js';
import { person, storedHousehold } from './support.js';

function world(admins: string[] = ['owner@example.com', 'ops@example.com'], mailer: Mailer = memoryMailer()) {
  const t = emptyTables();
  const clock = fixedClock(new Date('2026-05-04T09:00:00.000Z'));
  const accounts = memoryAccountStore(t);
  const deps: FeedbackDeps = {
    feedback: memoryFeedbackStore(t),
    households: memoryHouseholdStore(t),
    mailer,
    ids: uuidIds,
    clock,
    platformAdmins: new Set(admins),
  };
  async function signedUp(name: string) {
    const a = person(name);
    await accounts.create(a);
    return a;
  }
  async function household(owner: Account) {
    return storedHousehold(deps.households, owner, clock.now());
  }
  return { deps, clock, accounts, signedUp, household };
}

const input = (over: Partial<FeedbackInput> = {}): FeedbackInput => ({
  message: 'The plan is empty <b>again</b>',
  screen: 'WeekPlan',
  build: 'android/2.1.0',
  householdId: null,
  failedCalls: [],
  screenshot: null,
  ...over,
});

describe('feedback (domain)', () => {
  it('stores the report with the time of receipt and answers it', async () => {
    const { deps, clock, signedUp } = world();
    const kari = await signedUp('kari');
    const screenshot = { mediaType: 'image/webp' as const, bytes: new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3]) };
    const { report, alertFailures } = await submitFeedback(deps, kari, input({ screenshot }));
    expect(alertFailures).to.deep.equal([]);
    expect(report).to.include({ accountId: kari.id, householdId: null, message: 'The plan is empty <b>again</b>', screen: 'WeekPlan', build: 'android/2.1.0' });
    expect(report.receivedAt).to.deep.equal(clock.now());
    const stored = await deps.feedback.byId(report.id);
    expect(stored?.message).to.equal(report.message);
    expect([...stored!.screenshot!.bytes]).to.deep.equal([0x52, 0x49, 0x46, 0x46, 1, 2, 3]);
  });

  it('keeps the newest 20 failed calls, newest first, whatever order they came in', async () => {
    const { deps, signedUp } = world();
    const kari = await signedUp('kari');
    const calls: FailedCall[] = Array.from({ length: 25 }, (_, i) => ({
      method: 'GET',
      path: `/api/v1/call/${i}`,
      status: 500,
      traceId: `trace-${i}`,
      at: new Date(Date.UTC(2026, 4, 4, 8, 0, i)),
    }));
    const shuffled = [...calls.slice(10), ...calls.slice(0, 10).reverse()];
    const { report } = await submitFeedback(deps, kari, input({ failedCalls: shuffled }));
    expect(report.failedCalls.map((c) => c.path)).to.deep.equal(calls.slice(5).reverse().map((c) => c.path));
    expect((await deps.feedback.byId(report.id))?.failedCalls).to.have.length(20);
  });

  it("records the caller's own household and drops any other without a word", async () => {
    const { deps, signedUp, household } = world();
    const kari = await signedUp('kari');
    const ola = await signedUp('ola');
    const mine = await household(kari);
    const theirs = await household(ola);
    expect((await submitFeedback(deps, kari, input({ householdId: mine }))).report.householdId).to.equal(mine);
    expect((await submitFeedback(deps, kari, input({ householdId: theirs }))).report.householdId).to.equal(null);
    expect((await submitFeedback(deps, kari, input({ householdId: randomUUID() }))).report.householdId).to.equal(null);
  });

  it('alerts every admin address with who, where and what, escaping the message in HTML', async () => {
    const mailer = memoryMailer();
    const { deps, signedUp } = world(['owner@example.com', 'ops@example.com'], mailer);
    const kari = await signedUp('kari');
    const { report } = await submitFeedback(
      deps,
      kari,
      input({ message: 'Line one\r\nBcc: evil@example.com <script>', failedCalls: [{ method: 'POST', path: '/api/v1/x', status: 502, traceId: 'abc', at: new Date('2026-05-04T08:00:00.000Z') }] }),
    );
    expect(mailer.sent.map((m) => m.to).sort()).to.deep.equal(['ops@example.com', 'owner@example.com']);
    const mail = mailer.sent[0]!;
    expect(mail.subject).to.equal('Feedback: Line one Bcc: evil@example.com <script>');
    expect(mail.subject).to.not.match(/[\r\n]/);
    expect(mail.text).to.include(report.id).and.include(kari.email!).and.include('POST /api/v1/x → 502');
    expect(mail.html).to.include('&lt;script&gt;').and.not.include('<script>');
  });

  it('stores the report when the mailer fails, and tells the caller which alerts failed', async () => {
    const failing: Mailer = {
      send: async (mail) => {
        if (mail.to === 'ops@example.com') throw new Error('smtp down');
      },
    };
    const { deps, signedUp } = world(['owner@example.com', 'ops@example.com'], failing);
    const kari = await signedUp('kari');
    const { report, alertFailures } = await submitFeedback(deps, kari, input());
    expect(alertFailures.map((f) => f.to)).to.deep.equal(['ops@example.com']);
    expect((await deps.feedback.byId(report.id))?.id).to.equal(report.id);
  });

  it('sends no alert when no admin is configured', async () => {
    const mailer = memoryMailer();
    const { deps, signedUp } = world([], mailer);
    const kari = await signedUp('kari');
    const { report } = await submitFeedback(deps, kari, input());
    expect(mailer.sent).to.deep.equal([]);
    expect(await deps.feedback.byId(report.id)).to.not.equal(null);
  });

  it("goes with the reporter's account", async () => {
    const { deps, accounts, signedUp } = world();
    const kari = await signedUp('kari');
    const { report } = await submitFeedback(deps, kari, input({ screenshot: { mediaType: 'image/png', bytes: new Uint8Array([0x89, 0x50]) } }));
    await accounts.delete(kari.id);
    expect(await deps.feedback.byId(report.id)).to.equal(null);
  });
});
