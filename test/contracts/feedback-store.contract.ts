import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { FeedbackReport } from '../../core/feedback/types.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, createdAccount } from './fixtures.js';

export function feedbackStoreContract(backend: Backend): void {
  storeSuite(backend, 'FeedbackStore', (s) => {
    async function accountWithHousehold() {
      const account = await createdAccount(s);
      const householdId = randomUUID();
      await s.households.create(
        { id: householdId, name: 'Hansen', timeZoneId: 'Europe/Oslo', language: 'nb', country: 'NO', dinnerTime: '18:00', chains: [], plan: 'Free', createdAt: at('2026-02-01T12:00:00.500Z') },
        { id: randomUUID(), displayName: 'Kari', role: 'Owner', accountId: account.id, createdAt: at('2026-02-01T12:00:00.500Z') },
      );
      return { account, householdId };
    }

    const report = (accountId: string, over: Partial<FeedbackReport> = {}): FeedbackReport => ({
      id: randomUUID(),
      accountId,
      householdId: null,
      message: 'The list did not load.\nTwice! «æøå» 🍝',
      screen: 'ShoppingList',
      build: 'ios/2.4.1 (812)',
      failedCalls: [
        { method: 'GET', path: '/api/v1/households/x/shopping-list', status: 503, traceId: '4bf92f3577b34da6a3ce929d0e0e4736', at: at('2026-05-04T08:59:58.250Z') },
        { method: 'POST', path: '/api/v1/feedback', status: 0, traceId: null, at: at('2026-05-04T08:59:01.001Z') },
      ],
      screenshot: { mediaType: 'image/png', bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]), randomBytes(70_000)]) },
      receivedAt: at('2026-05-04T09:00:00.123Z'),
      ...over,
    });

    it('round-trips a report with its screenshot bytes, failed calls and dates', async () => {
      const { account, householdId } = await accountWithHousehold();
      const r = report(account.id, { householdId });
      await s.feedback.add(r);
      const back = await s.feedback.byId(r.id);
      expect(back).to.not.equal(null);
      const { screenshot, ...rest } = back!;
      const { screenshot: sent, ...expected } = r;
      expect(rest).to.deep.equal(expected);
      expect(screenshot?.mediaType).to.equal('image/png');
      expect(Buffer.from(screenshot!.bytes).equals(Buffer.from(sent!.bytes))).to.equal(true);
      expect(back!.receivedAt).to.be.instanceOf(Date);
      expect(back!.failedCalls[0]!.at).to.be.instanceOf(Date);
    });

    it('round-trips a report without screenshot, screen, build or calls', async () => {
      const { account } = await accountWithHousehold();
      const r = report(account.id, { screenshot: null, screen: null, build: null, failedCalls: [] });
      await s.feedback.add(r);
      expect(await s.feedback.byId(r.id)).to.deep.equal(r);
      expect(await s.feedback.byId(randomUUID())).to.equal(null);
    });

    it('does not let a caller change a stored report by mutating what was given or answered', async () => {
      const { account } = await accountWithHousehold();
      const r = report(account.id);
      await s.feedback.add(r);
      (r.screenshot!.bytes as Uint8Array)[0] = 0;
      const back = await s.feedback.byId(r.id);
      (back!.screenshot!.bytes as Uint8Array)[1] = 0;
      const again = await s.feedback.byId(r.id);
      expect([...again!.screenshot!.bytes.subarray(0, 4)]).to.deep.equal([0x89, 0x50, 0x4e, 0x47]);
    });

    it('deletes the reports of an account, screenshots included, with the account and no one else\'s', async () => {
      const { account } = await accountWithHousehold();
      const { account: other } = await accountWithHousehold();
      const mine = [report(account.id), report(account.id, { screenshot: null })];
      const theirs = report(other.id);
      for (const r of [...mine, theirs]) await s.feedback.add(r);
      await s.accounts.delete(account.id);
      for (const r of mine) expect(await s.feedback.byId(r.id)).to.equal(null);
      expect((await s.feedback.byId(theirs.id))?.accountId).to.equal(other.id);
    });

    it('keeps a report when its household is deleted, without the household', async () => {
      const { account, householdId } = await accountWithHousehold();
      const r = report(account.id, { householdId });
      await s.feedback.add(r);
      await s.households.delete(householdId);
      const back = await s.feedback.byId(r.id);
      expect(back?.householdId).to.equal(null);
      expect(back?.message).to.equal(r.message);
    });
  });
}
