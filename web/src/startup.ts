import { api } from './api';

// The order a start does its work in. On a cheap phone the first screen is what a person waits for, and every task
// the page runs before it shows makes that wait longer: installing the service worker (which copies the whole app
// into its cache), and reads the first screen does not show at once (the list's "better choices", the recipes that
// may be added to it). Those wait until the start has settled: the page loaded, no call to the service under way for
// a moment, and the browser idle. The budget this keeps is docs/performance.md's W9 row: the first shopping list at
// 4× CPU throttling within 2 s.

/** How long no call may be under way before the start counts as settled. */
const QUIET_MS = 400;
/** The longest the rest waits, should calls never fall quiet (a slow network, a screen that polls). */
const AT_MOST_MS = 8000;

let underWay = 0;
let lastAnswer = 0;
api.use({
  onRequest() {
    underWay++;
    return undefined;
  },
  onResponse() {
    underWay = Math.max(0, underWay - 1);
    lastAnswer = performance.now();
    return undefined;
  },
  onError() {
    underWay = Math.max(0, underWay - 1);
    lastAnswer = performance.now();
    return undefined;
  },
});

const idle = (): Promise<void> =>
  new Promise((resolve) => ('requestIdleCallback' in window ? window.requestIdleCallback(() => resolve(), { timeout: 1000 }) : setTimeout(resolve, 50)));

const loaded = (): Promise<void> =>
  document.readyState === 'complete' ? Promise.resolve() : new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));

async function quiet(): Promise<void> {
  const until = performance.now() + AT_MOST_MS;
  for (;;) {
    await new Promise((r) => setTimeout(r, QUIET_MS));
    const now = performance.now();
    if (now >= until || (underWay === 0 && now - lastAnswer >= QUIET_MS)) return;
  }
}

/** Resolves once, when the first screen has shown what it read. */
export const settled: Promise<void> = typeof window === 'undefined' ? Promise.resolve() : loaded().then(quiet).then(idle);

/** Runs work that the first screen does not need once the start has settled. */
function afterStart(work: () => unknown): void {
  void settled.then(work);
}

// The service worker that keeps the app and the household's data for offline use (web/vite.config.ts): registered
// after the start, so that copying the app into its cache does not compete with the first screen.
if (typeof navigator !== 'undefined' && 'serviceWorker' in navigator)
  afterStart(() => navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined));
