import type { Backend, Stores } from './backends.js';

/**
 * One contract suite of one store port on one backend: a describe block titled `${port} [${backend.name}]` whose
 * every test has fresh stores, opened before it and closed after it. `s` is one object the stores of each test are
 * copied into, so the suite's helpers and tests can hold it from the start. Hooks the suite adds run between the
 * opening and the closing: its beforeEach after the stores are open, its afterEach before they are closed. Named a
 * suite as the other kits are (httpSuite), so that the function-length check reads its body as a list of tests.
 */
export function storeSuite(backend: Backend, port: string, tests: (s: Stores) => void): void {
  describe(`${port} [${backend.name}]`, () => {
    const s = {} as Stores;
    beforeEach(async () => {
      Object.assign(s, await backend.open());
    });
    tests(s);
    afterEach(async () => s.close());
  });
}
