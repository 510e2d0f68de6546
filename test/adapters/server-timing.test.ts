/** The Server-Timing header's text (adapters/http/observe.ts), made on every answer. */
import { expect } from 'chai';
import { fmt, serverTiming } from '../../adapters/http/observe.js';

describe('Server-Timing text', () => {
  it('writes a duration to one decimal as toFixed(1) does, over many values', () => {
    const values = [0, 0.04, 0.05, 0.06, 0.44, 1, 9.96, 12.345, 99.99, 1234.56, 1e7 + 0.06];
    for (let i = 0; i < 10_000; i++) values.push((i * 7.919) % 5000, (i * 0.0173) % 3);
    // toFixed rounds the binary value exactly, so the two may differ only where a tenth is half away (0.95 is 0.9499…).
    const differing = values.filter((ms) => fmt(ms) !== ms.toFixed(1) && Math.abs(((ms * 10) % 1) - 0.5) > 1e-6);
    expect(differing).to.deep.equal([]);
    expect([0, 0.04, 0.06, 1, 99.99, 1234.56].map(fmt)).to.deep.equal(['0.0', '0.0', '0.1', '1.0', '100.0', '1234.6']);
  });

  it('lists total, db with its query count, then every step in order', () => {
    const metrics = { traceId: 't', spanId: 's', startedAt: 0n, dbMs: 1.26, dbQueries: 2, steps: [{ name: 'auth', ms: 0.04 }, { name: 'handler', ms: 3.15 }] };
    expect(serverTiming(metrics, 5.06)).to.equal('total;dur=5.1, db;dur=1.3;desc="2 queries", auth;dur=0.0, handler;dur=3.2');
    expect(serverTiming({ ...metrics, steps: [] }, 0)).to.equal('total;dur=0.0, db;dur=1.3;desc="2 queries"');
  });
});
