// ad-hoc screenshots (not committed): node shot.mjs URL... 
import { chromium } from "playwright-core";
const base = "http://127.0.0.1:18080";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking","--disable-component-update","--disable-sync"] });
const ctx = await browser.newContext({ javaScriptEnabled: process.env.JS !== "off", locale: "ru-RU" });
const page = await ctx.newPage();
const r1 = await page.request.post(base + "/login", { form: { phone: "79000000000" }, maxRedirects: 0 });
const { code } = await (await fetch("http://127.0.0.1:18090/sandbox/sms/79000000000")).json();
await page.request.post(base + "/login/code", { form: { code }, maxRedirects: 0 });
for (const path of process.argv.slice(2)) {
  for (const w of [360, 1280]) {
    await page.setViewportSize({ width: w, height: 800 });
    await page.goto(base + path);
    const name = path.replaceAll("/", "_");
    await page.screenshot({ path: `/tmp/lkshot/${name}-${w}.png`, fullPage: true });
  }
}
await browser.close();
