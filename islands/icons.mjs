// Renders the app's icons (static/img/app-icon*.png, the favicon
// static/img/favicon-32.png, the Wallet passes' icon and logo in
// static/img/pass/) from their SVG drawings with Chromium, so the PNGs the
// manifest, the pages and the passes name can be made again:
//   cd islands && node icons.mjs
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

const img = (name) => fileURLToPath(new URL(`../static/img/${name}`, import.meta.url));
const jobs = [
  ["app-icon.svg", "app-icon-192.png", 192],
  ["app-icon.svg", "app-icon-512.png", 512],
  ["app-icon-maskable.svg", "app-icon-maskable-512.png", 512],
  ["../favicon.svg", "favicon-32.png", 32],
  // A pass's icon (29 pt, on the lock screen and in notifications) and logo
  // (at most 160 × 50 pt, beside the logo text), at 1x, 2x and 3x.
  ["app-icon.svg", "pass/icon.png", 29],
  ["app-icon.svg", "pass/icon@2x.png", 58],
  ["app-icon.svg", "pass/icon@3x.png", 87],
  ["app-icon.svg", "pass/logo.png", 50],
  ["app-icon.svg", "pass/logo@2x.png", 100],
  ["app-icon.svg", "pass/logo@3x.png", 150],
];
const browser = await chromium.launch({
  executablePath: process.env.LK_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
const page = await browser.newPage();
for (const [svg, png, size] of jobs) {
  await page.setViewportSize({ width: size, height: size });
  const src = `data:image/svg+xml;base64,${readFileSync(img(svg)).toString("base64")}`;
  await page.setContent(`<style>html,body{margin:0;background:transparent}</style><img src="${src}" width="${size}" height="${size}">`);
  await page.locator("img").evaluate((el) => el.decode());
  await page.screenshot({ path: img(png), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}
await browser.close();
