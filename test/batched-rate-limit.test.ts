/**
 * The batched shared counter behind the Postgres backstop (adapters/ratelimit/batched-shared.ts), over an in-memory
 * stand-in for the shared row that counts how often it is asked: far from the limit requests are admitted without
 * asking, near it every request asks, and two processes sharing one row admit at most the rule plus each one's slack.
 */
import { expect } from 'chai';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { batchedShared, defaultSlack, type SharedCounter } from '../adapters/ratelimit/batched-shared.js';
import type { RateDecision } from '../adapters/ratelimit/decision.js';
import { flexibleRateLimiter } from '../adapters/ratelimit/rate-limiter.js';
import { DEFAULT_RATE_LIMITS } from '../config/config.js';
import { jsonLogger } from '../adapters/log/json-logger.js';
import { mulberry32 } from '../core/kernel/seeded.js';

function sharedRow(points: number): SharedCounter & { calls: number; consumed: () => Promise<number> } {
  const limiter = new RateLimiterMemory({ points, duration: 60 });
  const row = {
    calls: 0,
    consume(key: string, n: number): Promise<RateLimiterRes> {
      row.calls++;
      return limiter.consume(key, n);
    },
    consumed: async () => (await limiter.get('k'))?.consumedPoints ?? 0,
  };
  return row;
}

const settle = () => new Promise((r) => setTimeout(r, 30));

describe('batched shared rate-limit counter', () => {
  it('takes its slack from the rule: none below 20 points, a twentieth up to 20', () => {
    expect([3, 19, 20, 600, 10_000].map((points) => defaultSlack({ points, durationSec: 60 }))).to.deep.equal([0, 0, 1, 20, 20]);
  });

  it('admits far from the limit without asking, adds them in one batch, and asks on every request near the limit', async () => {
    const row = sharedRow(100);
    const limiter = batchedShared(row, { points: 100, durationSec: 60 }, { slack: 10, flushMs: 5 });
    const first = await Promise.all(Array.from({ length: 50 }, () => limiter.consume('k')));
    expect(first.every((d) => d.allowed)).to.equal(true);
    expect(row.calls).to.equal(0);
    await settle();
    expect(row.calls).to.equal(1);
    expect(await row.consumed()).to.equal(50);
    const decisions = [];
    for (let i = 0; i < 60; i++) decisions.push(await limiter.consume('k'));
    expect(decisions.filter((d) => d.allowed)).to.have.length(50);
    expect(decisions.slice(50).every((d) => !d.allowed && d.retryAfterSec >= 1)).to.equal(true);
    // From 90 on (the limit less the slack) every request asked the row itself.
    expect(row.calls).to.be.at.least(1 + 20);
  });

  it('counts what it has sent to the row until the row answers, so concurrent requests near the limit are not all admitted', async () => {
    const row = sharedRow(100);
    const limiter = batchedShared(row, { points: 100, durationSec: 60 }, { slack: 10, flushMs: 60_000 });
    const decisions = await Promise.all(Array.from({ length: 130 }, () => limiter.consume('k')));
    expect(decisions.filter((d) => d.allowed)).to.have.length(100);
    expect(await row.consumed()).to.be.at.least(100);
    await limiter.close();
  });

  it('learns the answer of the row as it stops counting what it sent, so no request is admitted in between', async () => {
    const row = sharedRow(100);
    const asked: Promise<RateLimiterRes>[] = [];
    const limiter = batchedShared({ consume: (key, n) => { const p = row.consume(key, n); asked.push(p); return p; } }, { points: 100, durationSec: 60 }, { slack: 10, flushMs: 60_000 });
    const decisions: (RateDecision | Promise<RateDecision>)[] = [];
    // 90 admitted here, the 91st sends all 91 to the row.
    for (let i = 0; i < 91; i++) decisions.push(limiter.consume('k'));
    expect(asked).to.have.length(1);
    // Requests that come right as the row answers (the next callback on its answer) see its count of 91.
    await asked[0]!.then(() => {
      for (let i = 0; i < 20; i++) decisions.push(limiter.consume('k'));
    });
    const settled = await Promise.all(decisions);
    expect(settled.filter((d) => d.allowed)).to.have.length(100);
    await limiter.close();
  });

  it('forgets keys whose window ended a few at a time, as requests come, once 10,000 are held', async () => {
    let clock = 1_000_000;
    const limiter = batchedShared({ consume: async (_key, points) => new RateLimiterRes(0, 60_000, points, false) }, { points: 100, durationSec: 60 }, { slack: 10, flushMs: 1, now: () => clock });
    for (let i = 0; i < 12_000; i++) limiter.consume(`old:${i}`);
    await settle();
    expect(limiter.held()).to.equal(12_000);
    clock += 61_000;
    for (let i = 0; i < 1000; i++) limiter.consume(`new:${i}`);
    // Two forgotten a request, one added: 12,000 - 2,000 + 1,000.
    expect(limiter.held()).to.equal(11_000);
    for (let i = 1000; i < 6000; i++) limiter.consume(`new:${i}`);
    // Down to the bound, and held there while the new keys' windows last.
    expect(limiter.held()).to.be.within(10_000, 10_001);
    await limiter.close();
  });

  it('adds what is pending at once on close, so shutting down loses no counts and leaves no timer', async () => {
    const row = sharedRow(100);
    const limiter = batchedShared(row, { points: 100, durationSec: 60 }, { slack: 10, flushMs: 60_000 });
    for (let i = 0; i < 7; i++) await limiter.consume('k');
    expect(row.calls).to.equal(0);
    await limiter.close();
    expect(row.calls).to.equal(1);
    expect(await row.consumed()).to.equal(7);
  });

  it('asks on every request when the slack is 0, so a small rule stays exact', async () => {
    const row = sharedRow(3);
    const limiter = batchedShared(row, { points: 3, durationSec: 60 }, { slack: 0, flushMs: 5 });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push((await limiter.consume('k')).allowed);
    expect(decisions).to.deep.equal([true, true, true, false]);
    expect(row.calls).to.equal(4);
  });

  it('lets two processes sharing one row admit at most the rule plus the slack of each', async () => {
    const row = sharedRow(200);
    const rule = { points: 200, durationSec: 60 };
    const processes = [batchedShared(row, rule, { slack: 10, flushMs: 2 }), batchedShared(row, rule, { slack: 10, flushMs: 2 })];
    let admitted = 0;
    for (let round = 0; round < 40; round++) {
      const decisions = await Promise.all(processes.flatMap((p) => Array.from({ length: 5 }, () => p.consume('k'))));
      admitted += decisions.filter((d) => d.allowed).length;
      await settle();
    }
    expect(admitted).to.be.at.least(200);
    expect(admitted).to.be.at.most(200 + 2 * 10);
  });

  it('admits exactly the rule in one process when the row answers out of order (a single request could pass the batch before it)', async () => {
    // A row whose answers each take their own time, as statements on several pooled connections do: sent side by
    // side, a request of one point reached the row before the batch of 38 admitted earlier, and 49 of 60 were
    // admitted against a rule of 40 (41 seen on Postgres). Seeded, so a failure repeats.
    const random = mulberry32(42);
    for (let trial = 0; trial < 20; trial++) {
      const memory = new RateLimiterMemory({ points: 40, duration: 60 });
      const row: SharedCounter = { consume: (key, n) => new Promise((resolve) => setTimeout(resolve, random() * 10)).then(() => memory.consume(key, n)) };
      const limiter = batchedShared(row, { points: 40, durationSec: 60 }, { slack: 2, flushMs: 100 });
      const spread = trial % 2 === 0 ? 5 : 100;
      const decisions = await Promise.all(Array.from({ length: 60 }, () => new Promise<RateDecision>((resolve) => setTimeout(() => void Promise.resolve(limiter.consume('k')).then(resolve), random() * spread))));
      expect(decisions.filter((d) => d.allowed), `trial ${trial}`).to.have.length(40);
      await limiter.close();
    }
  });

  it('in one process (SQLite) admits exactly the rule, answering at once far from the limit and asking the counter near it', async () => {
    const rules = { ...DEFAULT_RATE_LIMITS, backstop: { points: 200, durationSec: 60 }, auth: { points: 5, durationSec: 60 } };
    const limiter = flexibleRateLimiter(rules, { kind: 'memory' }, jsonLogger('silent'));
    try {
      const first = limiter.consume('backstop', 'account:a');
      expect(first).not.to.be.instanceOf(Promise);
      // 230 at once, as concurrent requests would ask: 200 admitted, 30 refused, whatever answered at once.
      const decisions = await Promise.all(Array.from({ length: 229 }, () => limiter.consume('backstop', 'account:a')));
      const all = [first, ...decisions] as { allowed: boolean }[];
      expect(all.filter((d) => d.allowed)).to.have.length(200);
      expect(all.slice(200).every((d) => !d.allowed)).to.equal(true);
      // Another key has a window of its own; a rule under 20 points asks on every request.
      expect(await limiter.consume('backstop', 'account:b')).to.deep.equal({ allowed: true });
      expect(limiter.consume('auth', 'ip:1')).to.be.instanceOf(Promise);
      const auth = [];
      for (let i = 0; i < 6; i++) auth.push((await limiter.consume('auth', 'ip:1')).allowed);
      expect(auth).to.deep.equal([true, true, true, true, false, false]);
    } finally {
      await limiter.close();
    }
  });
});
