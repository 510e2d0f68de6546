/**
 * Renders web/public/icons/icon.svg into the PNG icons the web manifest names (and the one iOS wants), with the
 * Chromium the e2e tests use. Run again after changing the SVG: `npx tsx scripts/icons.ts`; the PNGs are committed.
 */
import { readFileSync } from 'node:fs';
import { launch } from '../test/e2e/browser.js';

const DIR = 'web/public/icons';
const svg = readFileSync(`${DIR}/icon.svg`, 'utf8');
const browser = await launch();
try {
  for (const [name, size] of [['icon-192.png', 192], ['icon-512.png', 512], ['apple-touch-icon.png', 180]] as const) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
    await page.screenshot({ path: `${DIR}/${name}`, omitBackground: false });
    await page.close();
    console.log(`${DIR}/${name}`);
  }
} finally {
  await browser.close();
}
