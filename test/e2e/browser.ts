import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

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
