import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, createdAccount } from './fixtures.js';

const DAY = 24 * 60 * 60 * 1000;
const t0 = at('2026-05-01T10:00:00.000Z');
const when = (now: Date) => ({ now, since: new Date(now.getTime() - DAY), abandonedBefore: new Date(now.getTime() - 60_000) });
const tick = { request: 'PATCH /api/v1/households/h/shopping-items/i', fingerprint: 'a'.repeat(64) };
const answer = { status: 200, contentType: 'application/json; charset=utf-8', body: '{"status":"Purchased","name":"Brød ✓"}' };

export function idempotencyStoreContract(backend: Backend): void {
  storeSuite(backend, 'IdempotencyStore', (s) => {
    /** A signed-in login: its session's token hash. */
    async function login(): Promise<string> {
      const account = await createdAccount(s);
      const tokenHash = randomUUID().replace(/-/g, '');
      await s.sessions.create({ tokenHash, accountId: account.id, securityStamp: account.securityStamp, createdAt: t0, expiresAt: at('2026-06-01T00:00:00.000Z') });
      return tokenHash;
    }

    it('claims a key once; the same request meanwhile finds it in progress, and afterwards gets the kept answer, byte for byte', async () => {
      const me = await login();
      expect(await s.idempotency.claim(me, 'k1', tick, when(t0))).to.deep.equal({ kind: 'claimed' });
      expect(await s.idempotency.claim(me, 'k1', tick, when(t0))).to.deep.equal({ kind: 'in-progress' });
      await s.idempotency.keep(me, 'k1', answer);
      expect(await s.idempotency.claim(me, 'k1', tick, when(new Date(t0.getTime() + 5000)))).to.deep.equal({ kind: 'answered', answer });
    });

    it('tells another request (route or body) under a used key apart, and keeps keys per login', async () => {
      const me = await login();
      const other = await login();
      await s.idempotency.claim(me, 'k', tick, when(t0));
      await s.idempotency.keep(me, 'k', answer);
      expect(await s.idempotency.claim(me, 'k', { ...tick, request: 'DELETE /api/v1/households/h/shopping-items/i' }, when(t0))).to.deep.equal({ kind: 'other-request' });
      expect(await s.idempotency.claim(me, 'k', { ...tick, fingerprint: 'b'.repeat(64) }, when(t0))).to.deep.equal({ kind: 'other-request' });
      expect(await s.idempotency.claim(other, 'k', tick, when(t0))).to.deep.equal({ kind: 'claimed' });
    });

    it('lets a released key be claimed again, takes over an abandoned claim, and forgets keys after a day', async () => {
      const me = await login();
      await s.idempotency.claim(me, 'r', tick, when(t0));
      await s.idempotency.release(me, 'r');
      expect(await s.idempotency.claim(me, 'r', tick, when(t0))).to.deep.equal({ kind: 'claimed' });
      // Never answered, and older than the abandon mark: its process is gone.
      expect(await s.idempotency.claim(me, 'r', tick, when(new Date(t0.getTime() + 61_000)))).to.deep.equal({ kind: 'claimed' });

      await s.idempotency.claim(me, 'old', tick, when(t0));
      await s.idempotency.keep(me, 'old', answer);
      // Released keys stay answered: release touches only an unanswered claim.
      await s.idempotency.release(me, 'old');
      expect((await s.idempotency.claim(me, 'old', tick, when(t0))).kind).to.equal('answered');
      const nextDay = new Date(t0.getTime() + DAY + 1000);
      expect(await s.idempotency.claim(me, 'old', tick, when(nextDay))).to.deep.equal({ kind: 'claimed' });
      await s.idempotency.claim(me, 'gone', tick, when(t0));
      expect(await s.idempotency.forgetBefore(new Date(t0.getTime() + 1))).to.equal(1);
      expect(await s.idempotency.claim(me, 'gone', tick, when(t0))).to.deep.equal({ kind: 'claimed' });
    });

    it("forgets a login's keys when the login ends", async () => {
      const me = await login();
      await s.idempotency.claim(me, 'k', tick, when(t0));
      await s.idempotency.keep(me, 'k', answer);
      await s.sessions.delete(me);
      expect(await s.idempotency.forgetBefore(new Date(t0.getTime() + DAY * 2))).to.equal(0);
    });

    it('of two claims of one key at the same moment, exactly one holds it', async () => {
      const me = await login();
      const claims = await Promise.all(Array.from({ length: 6 }, () => s.idempotency.claim(me, 'race', tick, when(t0))));
      expect(claims.filter((c) => c.kind === 'claimed')).to.have.length(1);
      expect(claims.filter((c) => c.kind === 'in-progress')).to.have.length(5);
    });
  });
}
