import { expect } from 'chai';
import { atFirstUse } from '../../adapters/first-use.js';

describe('atFirstUse', () => {
  it('makes nothing until asked, then once for every caller, and tells what it made', async () => {
    let makes = 0;
    const value = atFirstUse(async () => ({ n: ++makes }));
    expect(makes).to.equal(0);
    expect(value.made()).to.equal(null);
    const [a, b] = await Promise.all([value(), value()]);
    expect(makes).to.equal(1);
    expect(a).to.equal(b);
    expect(await value()).to.equal(a);
    expect(value.made()).to.equal(a);
  });

  it('tries again at the next use after a failed make, and keeps nothing of the failure', async () => {
    let makes = 0;
    const value = atFirstUse(async () => {
      makes++;
      if (makes === 1) throw new Error('not reachable yet');
      return 'ready';
    });
    let failure: unknown = null;
    await value().catch((err: unknown) => (failure = err));
    expect((failure as Error).message).to.equal('not reachable yet');
    expect(value.made()).to.equal(null);
    expect(await value()).to.equal('ready');
    expect(makes).to.equal(2);
  });
});
