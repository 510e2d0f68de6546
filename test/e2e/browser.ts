import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import type { Client } from '../support/client.js';
import type { DatabaseKind } from '../support/databases.js';
import { httpService, type HttpService, type HttpServiceOptions } from '../support/http-suite.js';

/** Debian's Chromium (`apt-get install chromium`); CHROMIUM_PATH names another. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Headless, and none of the background traffic a closed network refuses (Google's hosts, updates, sync). */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };
export const NARROW = { width: 360, height: 740 };
export const SCREENS_DIR = 'test-results/screens';

/** How far the page reaches past the right edge at 360 px, the narrowest phone the app is made for (0 when it fits). */
export async function overflowAtNarrow(page: Page): Promise<number> {
  const size = page.viewportSize();
  await page.setViewportSize(NARROW);
  const over = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
  if (size) await page.setViewportSize(size);
  return over;
}

/** Screenshots of the page as it is, at a phone's size and a desktop's, named `<name>-phone.png` and `<name>-desktop.png`. */
export async function screens(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const size = page.viewportSize();
  for (const [label, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `${SCREENS_DIR}/${name}-${label}.png`, fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: number;
}

/**
 * axe-core's serious and critical violations on the page as it is. The script is evaluated through the DevTools
 * protocol, which the page's CSP does not govern (an injected script tag would rightly be refused).
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const found = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: unknown[] }[] }> } }).axe;
    const r = await axe.run();
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length }));
  })) as AxeViolation[];
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Where `npm run build:web` puts the web app the e2e suites serve. */
export const WEB_DIR = 'web/dist';

/** Fails at once, with what to do, when Chromium or the built web app (with `file` in it) is missing. */
export function requireChromiumAndBuild(file = 'index.html'): void {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  if (!existsSync(`${WEB_DIR}/${file}`)) throw new Error('the web app is not built: npm run build:web');
}

/** Monday of the current week (UTC), a plan's week start. */
export function thisMonday(): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** Photographs the page (screens) and checks it: no serious axe-core violation, nothing wider than 360 px. */
export async function checkedShot(page: Page, name: string): Promise<void> {
  await screens(page, name);
  const violations = await seriousViolations(page);
  if (violations.length > 0) throw new Error(`${name}: ${JSON.stringify(violations)}`);
  const over = await overflowAtNarrow(page);
  if (over !== 0) throw new Error(`${name} is ${over} px wider than 360 px`);
}

/** What a browser suite gives its tests, once its `before` has run. */
export interface BrowserSuite {
  readonly server: HttpService;
  readonly browser: Browser;
  /** A context of its own (phone-sized, Norwegian, unless `options` say otherwise), closed after the suite. */
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A page in a context of its own, signed in as `client` when one is given; the page a failure photographs. */
  page(client?: Client, options?: BrowserContextOptions): Promise<Page>;
  /** Makes `page` the one a failure photographs (for a page opened in a context of the test's own). */
  watch(page: Page): Page;
}

/**
 * The set-up every browser suite shares, as hooks of the describe it is called in: the web app's build checked
 * (with `requires` in it), Chromium, the real service on `kind`'s database serving it (WEB_DIR, and what `options`
 * say, as httpService takes them: env, runtime, a clock, a mail capture), and contexts closed after the suite,
 * before the service stops; a failed test leaves a screenshot of the last page it opened or watched,
 * test-results/screens/FAILED-<name>-<kind>.png.
 */
export function browserSuite(name: string, kind: DatabaseKind, options: HttpServiceOptions & { requires?: string } = {}): BrowserSuite {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  let last: Page | undefined;
  before(async () => {
    requireChromiumAndBuild(options.requires);
    browser = await launch();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && last) await last.screenshot({ path: `${SCREENS_DIR}/FAILED-${name}-${kind.name}.png`, fullPage: true }).catch(() => undefined);
  });
  // Registered before the service's own: pages hold streams open to it.
  after(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
  });
  const { env } = options;
  const server = httpService(kind, { ...options, env: async () => ({ WEB_DIR, ...(typeof env === 'function' ? await env() : env) }) });
  const suite: BrowserSuite = {
    server,
    get browser() {
      if (!browser) throw new Error('the suite has not started');
      return browser;
    },
    async context(contextOptions = {}) {
      const c = await suite.browser.newContext({ viewport: PHONE, locale: 'nb-NO', ...contextOptions });
      contexts.push(c);
      return c;
    },
    async page(client, contextOptions) {
      const c = await suite.context(contextOptions);
      if (client) await c.addCookies([{ name: 'app_session', value: client.cookie!, url: suite.server.url }]);
      return suite.watch(await c.newPage());
    },
    watch(page) {
      last = page;
      return page;
    },
  };
  return suite;
}

/** On a phone the week folds the days before today away: this waits for the week and opens them all. */
export async function openWholeWeek(page: Page): Promise<void> {
  await page.locator('li.day').first().waitFor({ state: 'attached' });
  const earlier = page.getByRole('button', { name: /^(Vis tidligere dager|Show earlier days)/ });
  if ((await earlier.count()) > 0) await earlier.click();
}
