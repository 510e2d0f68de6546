/** isoTime (adapters/http/iso-time.ts) answers what toISOString does, in the same millisecond, across seconds and in a row. */
import { expect } from 'chai';
import { isoTime } from '../../adapters/http/iso-time.js';

describe('isoTime', () => {
  it('is toISOString for times in a row, across seconds, before 1970 and at the ends of the range', () => {
    const times: number[] = [];
    for (let i = 0; i < 20_000; i++) times.push(1_764_000_000_000 + i * 7);
    times.push(0, -1, -999, -1000, -1001, 8.64e15, -8.64e15, 253_402_300_799_999, 253_402_300_800_000);
    for (let i = 0; i < 2000; i++) times.push(Math.round((i * 1_234_567_891) % 8e14) - 4e14);
    // The same millisecond twice, then an earlier one.
    times.push(1_764_000_000_123, 1_764_000_000_123, 1_764_000_000_122, 1_764_000_000_123);
    const differing = times.filter((t) => isoTime(new Date(t)) !== new Date(t).toISOString());
    expect(differing).to.deep.equal([]);
  });
});
