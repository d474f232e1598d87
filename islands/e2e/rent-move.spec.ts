import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { clickDay, signInByForm } from "./helpers";

const DEMO = "79000000000";
const BUSY = "Невозможно выбрать период с неактивными часами.";
const wrongLength = (n: number) => `Такой период невозможен, необходимо выбрать от и до, вам доступно: ${n} ч.`;

// One sign-in for the whole file: the demo phone may get only 5 codes in
// 2 hours, and the other files sign it in too.
let cookies: Awaited<ReturnType<BrowserContext["cookies"]>> = [];
test.beforeAll(async ({ browser }) => {
  const ctx = await browser.newContext();
  await signInByForm(await ctx.newPage(), DEMO);
  cookies = await ctx.cookies();
  await ctx.close();
});

const signIn = (page: Page) => page.context().addCookies(cookies);

type Hour = { from: string; to: string; free: boolean };
type Day = { date: string; label: string; need: string; hours: Hour[] };
/** A day with a run of need free hours, and a busy hour right after a free one. */
type Plan = { day: Day; free: number; beforeBusy: number };

/** The transfer page of the customer's first movable rent of kind, as the orders page links it. */
async function movable(page: Page, kind: "pavilion" | "celRoom"): Promise<string> {
  await page.goto("/orders");
  const hrefs = await page
    .locator(`main a[href^="/orders/${kind}/"]`)
    .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  for (const href of hrefs) {
    await page.goto(href);
    const link = page.getByRole("link", { name: "Перенести аренду" });
    if ((await link.count()) > 0) return (await link.getAttribute("href")) as string;
  }
  throw new Error(`e2e: no movable ${kind} rent`);
}

function addDays(iso: string, n: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Reads days as the island does (JSON from the same page) until one fits;
 *  never the day the page shows already (choosing it again loads nothing). */
async function plan(page: Page, url: string, today: string): Promise<Plan> {
  const shown = await page.locator("#day").inputValue();
  for (let off = 1; off <= 25; off++) {
    if (addDays(today, off) === shown) continue;
    const res = await page.request.get(`${url}?date=${addDays(today, off)}`, { headers: { Accept: "application/json" } });
    const day = (await res.json()) as Day;
    const need = Number(day.need);
    let run = 0;
    let free = -1;
    let beforeBusy = -1;
    day.hours.forEach((h, i) => {
      run = h.free ? run + 1 : 0;
      if (run === need && free < 0) free = i - need + 1;
      if (!h.free && i > 0 && day.hours[i - 1].free && beforeBusy < 0) beforeBusy = i - 1;
    });
    if (free >= 0 && beforeBusy >= 0 && beforeBusy + 2 < day.hours.length && day.hours[beforeBusy + 2].free) {
      return { day, free, beforeBusy };
    }
  }
  throw new Error(`e2e: no day with free and busy hours for ${url}`);
}

test.describe("moving a rent with JavaScript on, at 360 px", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("tap the start, tap the end; refused periods at once; a good move", async ({ page }, info) => {
    await signIn(page);
    const url = await movable(page, "pavilion");
    await page.goto(url);
    await expect(page.locator('[data-island="slot-picker"]')).toHaveAttribute("data-island-state", "mounted");
    await expect(page.locator('[data-island="calendar"]')).toHaveAttribute("data-island-state", "mounted");
    await expect(page.locator("[data-island-fallback]:visible")).toHaveCount(0);
    await expect(page.locator(".cal .flatpickr-calendar")).toBeVisible();

    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations, "axe").toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), "page width").toBeLessThanOrEqual(360);

    const today = (await page.locator("#day").getAttribute("min")) as string;
    const p = await plan(page, url, today);
    const need = Number(p.day.need);

    // Another day: the hours come in place, without a page load.
    await page.evaluate(() => ((window as unknown as { stay: boolean }).stay = true));
    // The day, in the calendar island, like the other moves.
    expect(await clickDay(page, p.day.date)).toBe(true);
    await expect(page.getByRole("heading", { name: `Часы на ${p.day.label}` })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { stay?: boolean }).stay)).toBe(true);
    expect(page.url()).toContain(`date=${p.day.date}`);

    const slots = page.locator(".slot-picker").getByRole("button");
    const slot = (i: number) => slots.filter({ hasText: new RegExp(`^${p.day.hours[i].from}`) });
    const alert = page.locator(".slot-picker [role=alert]");
    for (const h of p.day.hours) {
      const s = slots.filter({ hasText: new RegExp(`^${h.from}`) });
      const box = await s.boundingBox();
      expect(box && box.height >= 44 && box.width >= 44, `${h.from}: touch target`).toBeTruthy();
      await expect(s).toHaveAttribute("aria-pressed", "false");
      if (!h.free) await expect(s).toHaveAttribute("aria-disabled", "true");
    }

    // A busy hour cannot be taken; a period over one is refused at once.
    await slot(p.beforeBusy + 1).click({ force: true }); // aria-disabled: Playwright would wait for it to be enabled
    await expect(slot(p.beforeBusy + 1)).toHaveAttribute("aria-pressed", "false");
    await slot(p.beforeBusy).click();
    await expect(slot(p.beforeBusy)).toHaveAttribute("aria-pressed", "true");
    await slot(p.beforeBusy + 2).click();
    await expect(alert).toHaveText(BUSY);

    // A wrong length, at once.
    await slot(p.free).click();
    await slot(p.free + need - 2).click();
    await expect(alert).toHaveText(wrongLength(need));

    // The good period, by keyboard for the end.
    await slot(p.free).click();
    await slot(p.free + need - 1).focus();
    await page.keyboard.press("Enter");
    const from = p.day.hours[p.free].from;
    const to = p.day.hours[p.free + need - 1].to;
    await expect(page.locator(".slot-picker [role=status]")).toContainText(`${from}–${to}`);
    await expect(alert).toHaveText("");
    await page.screenshot({ path: info.outputPath("rent-move-360.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: info.outputPath("rent-move-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 360, height: 740 });

    await page.getByRole("button", { name: "Перенести аренду" }).click();
    // On to the new rent at once, which says the move was done, as without JavaScript.
    await page.waitForURL(/\/orders\/pavilion\/\d+$/);
    await expect(page.locator(".notice-ok")).toHaveText("Перенос выполнен успешно");
    expect(page.url()).not.toContain(url.replace("/transfer", ""));
    const article = page.locator("main article");
    await expect(article).toContainText(`${from}–${to}`);
    await expect(article).toContainText(p.day.label);
  });
});

test.describe("the rent-move page without its island", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the plain form passes axe, refused or not", async ({ page }, info) => {
    // axe needs script, so the island's files are blocked instead of all script.
    await page.route("**/static/dist/**", (r) => r.abort());
    await signIn(page);
    const url = await movable(page, "pavilion");
    await page.goto(url);
    await expect(page.locator("[data-island-fallback]").first()).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations, "axe").toEqual([]);
    await page.screenshot({ path: info.outputPath("rent-move-fallback-360.png"), fullPage: true });
    await page.getByRole("button", { name: "Перенести аренду" }).click();
    await expect(page.locator(".summary")).toContainText("Выберите время начала.");
    expect((await new AxeBuilder({ page }).analyze()).violations, "axe on the refused form").toEqual([]);
  });
});

test.describe("moving a rent with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("radio buttons, a refused period and a good move", async ({ page }) => {
    await signIn(page);
    const url = await movable(page, "celRoom");
    await page.goto(url);
    const today = (await page.locator("#day").getAttribute("min")) as string;
    const p = await plan(page, url, today);
    const need = Number(p.day.need);

    await page.locator("#day").fill(p.day.date);
    await page.getByRole("button", { name: "Показать" }).click();
    await expect(page.getByRole("heading", { name: `Часы на ${p.day.label}` })).toBeVisible();
    await expect(page.locator(`input[name=from][value="${p.day.hours[p.beforeBusy + 1].from}"]`)).toBeDisabled();

    // Over a busy hour: 422, the agreed text, the answers kept.
    await page.locator(`input[name=from][value="${p.day.hours[p.beforeBusy].from}"]`).check();
    await page.locator(`input[name=to][value="${p.day.hours[p.beforeBusy + 2].to}"]`).check();
    const refused = page.waitForResponse((r) => r.request().method() === "POST");
    await page.getByRole("button", { name: "Перенести аренду" }).click();
    expect((await refused).status()).toBe(422);
    await expect(page.locator(".summary")).toContainText(BUSY);
    await expect(page.locator(`input[name=from][value="${p.day.hours[p.beforeBusy].from}"]`)).toBeChecked();
    // The good move.
    const from = p.day.hours[p.free].from;
    const to = p.day.hours[p.free + need - 1].to;
    await page.locator(`input[name=from][value="${from}"]`).check();
    await page.locator(`input[name=to][value="${to}"]`).check();
    await page.getByRole("button", { name: "Перенести аренду" }).click();
    await expect(page).toHaveURL(/\/orders\/celRoom\/\d+$/);
    await expect(page.locator(".notice-ok")).toHaveText("Перенос выполнен успешно");
    await expect(page.locator("main article")).toContainText(`${from}–${to}`);
  });
});
