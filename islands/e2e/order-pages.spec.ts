// What a customer stumbles on in the order pages and the calendars: the
// order's buttons on a phone's first screen, with what each money-back
// button does beside them; and a screenshot of each page at 360 and 1280 px
// (islands/test-results/…/<page>-<width>.png) for a person to look at.
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signUpNew } from "./helpers";

const KINDS = ["glk", "pavilion", "aqua", "hotel", "celRoom"];

// A new customer (the sandbox gives one orders of every kind), so no other
// test's orders or phone limits are touched.
let cookies: Awaited<ReturnType<BrowserContext["cookies"]>> = [];
let orders: string[] = [];
test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signUpNew(page, "Нина", "Заказова");
  orders = await page
    .locator('section[aria-labelledby="active-h"] a[href^="/orders/"]')
    .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? "").filter((h) => /^\/orders\/\w+\/\d+$/.test(h)));
  cookies = await page.context().cookies();
  await page.close();
});

const signIn = (page: Page) => page.context().addCookies(cookies);

test("at 360 px every order page shows its buttons on the first screen, after the summary", async ({ page }, info) => {
  await signIn(page);
  for (const kind of KINDS) {
    const href = orders.find((h) => h.startsWith(`/orders/${kind}/`));
    expect(href, `an active ${kind} order`).toBeTruthy();
    for (const width of [360, 1280]) {
      const height = width < 600 ? 740 : 720;
      await page.setViewportSize({ width, height });
      const res = await page.goto(href as string);
      expect(res?.status()).toBe(200);
      await page.screenshot({ path: info.outputPath(`order-${kind}-${width}.png`), fullPage: true });
      // The order's document and actions; adding it to a calendar comes last.
      const buttons = page.locator("article .actions .btn:not([data-action=calendar])");
      expect(await buttons.count(), `${href}: buttons`).toBeGreaterThan(0);
      for (let i = 0; i < (await buttons.count()); i++) {
        const box = await buttons.nth(i).boundingBox();
        expect(box, `${href} at ${width}: button ${i}`).not.toBeNull();
        expect(box?.y ?? height, `${href} at ${width}: «${await buttons.nth(i).textContent()}» below the first screen`).toBeLessThan(height);
      }
      const summary = await page.locator("article dl.kv").boundingBox();
      const first = await buttons.first().boundingBox();
      expect((first?.y ?? 0) > (summary?.y ?? 0), `${href}: the buttons follow the summary`).toBeTruthy();
    }
  }
});

test("a movable rent and the hotel say beside their buttons which money-back button does what", async ({ page }) => {
  await signIn(page);
  await page.setViewportSize({ width: 360, height: 740 });
  for (const [kind, cancel] of [
    ["pavilion", "Отменить аренду"],
    ["hotel", "Отменить бронирование"],
  ]) {
    let found = false;
    for (const href of orders.filter((h) => h.startsWith(`/orders/${kind}/`))) {
      await page.goto(href);
      if ((await page.getByRole("link", { name: cancel }).count()) === 0 || (await page.getByRole("link", { name: "Оформить возврат" }).count()) === 0) continue;
      found = true;
      const notes = page.locator("#money-back li");
      await expect(notes).toHaveCount(2);
      await expect(notes.nth(0)).toContainText(`«${cancel}»`);
      await expect(notes.nth(1)).toContainText("«Оформить возврат»");
      // Right below the buttons.
      const bar = await page.locator("article .actions").boundingBox();
      const list = await page.locator("#money-back").boundingBox();
      expect(Math.abs((list?.y ?? 0) - ((bar?.y ?? 0) + (bar?.height ?? 0)))).toBeLessThan(24);
    }
    expect(found, `a ${kind} order with both buttons`).toBeTruthy();
  }
});
