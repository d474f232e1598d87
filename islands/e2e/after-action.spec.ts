// The order list and an order after an action, at a phone's width and a
// desktop's: 'Показать ещё' adds in place (and, without JavaScript, opens
// the list with more), the search by order number, a cancelled lesson's and
// a refunded rent's pages after the action, and the hotel move without
// JavaScript. Each page is kept as a screenshot for a person to look at.
// Every test signs up a customer of its own, so no other spec's orders change.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { lastCode, newPhone } from "./helpers";

/** Signs up a new customer with `past` orders in the past added. */
async function customerWithHistory(page: Page, past: number): Promise<void> {
  const { digits } = newPhone();
  const r1 = await page.request.post("/signup", { form: { phone: digits, firstName: "Анна", lastName: "Смирнова" }, maxRedirects: 0 });
  expect(r1.status()).toBe(303);
  const r2 = await page.request.post("/login/code", { form: { code: (await lastCode(digits)).code }, maxRedirects: 0 });
  expect(r2.status()).toBe(303);
  const res = await fetch(`${process.env.LK_E2E_SANDBOX}/sandbox/past`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ phone: digits, count: past }),
  });
  expect(res.status).toBe(200);
}

/** The first order of kind whose page offers action, by its page's link. */
async function orderOffering(page: Page, kind: string, action: string): Promise<string> {
  await page.goto("/orders");
  const hrefs = await page.locator(`section[aria-labelledby="active-h"] li[data-kind="${kind}"] h3 a`).evaluateAll((as) =>
    as.map((a) => a.getAttribute("href") ?? ""),
  );
  for (const href of hrefs) {
    await page.goto(href);
    if ((await page.locator(`a[data-action="${action}"]`).count()) > 0) return href;
  }
  throw new Error(`no ${kind} order offers ${action}`);
}

const historyCards = (page: Page) => page.locator("#history li.oc");

for (const width of [360, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 360 ? 740 : 900 } });

    test("'Показать ещё' appends in place, and the search finds an order by its number", async ({ page }, info) => {
      await customerWithHistory(page, 45);
      await page.goto("/orders");
      await expect(historyCards(page)).toHaveCount(20);
      await page.screenshot({ path: info.outputPath(`orders-${width}.png`), fullPage: true });
      const more = page.getByRole("link", { name: "Показать ещё" });
      await expect(more).toHaveAttribute("data-enhance-state", "done");
      await more.click();
      await expect(historyCards(page)).toHaveCount(40);
      await expect(page).toHaveURL(/\/orders\?page=2$/);
      await expect(page.locator("#history [data-shown]")).toHaveText(/^Показаны 40 из \d+$/);
      await expect(page.locator("#history li.oc").nth(20).locator("h3 a")).toBeFocused();
      await expect(page.locator('section[aria-labelledby="active-h"] li.oc').first()).toBeVisible();
      await page.screenshot({ path: info.outputPath(`orders-more-${width}.png`), fullPage: false });

      const id = (await historyCards(page).nth(30).getAttribute("data-id")) ?? "";
      await page.getByLabel("Номер заказа").fill(`№ ${id}`);
      await page.getByRole("button", { name: "Показать" }).click();
      await expect(page).toHaveURL(new RegExp(`q=`));
      await expect(page.locator("#found li.oc")).toHaveCount(1);
      await expect(page.locator("#found li.oc")).toHaveAttribute("data-id", id);
      await expect(page.locator("main")).not.toContainText("Заказов не найдено");
      await page.screenshot({ path: info.outputPath(`orders-search-${width}.png`), fullPage: true });
    });

    test("a cancelled lesson and a refunded rent still open, saying what was done", async ({ page }, info) => {
      await customerWithHistory(page, 1);
      const lesson = await orderOffering(page, "glk", "cancel");
      await page.locator('a[data-action="cancel"]').click();
      await page.locator("main form button[type=submit]").click();
      await expect(page).toHaveURL(/\/orders$/);
      const res = await page.goto(lesson);
      expect(res?.status()).toBe(200);
      await expect(page.locator("[data-done]")).toContainText("Вы отменили этот заказ");
      await page.screenshot({ path: info.outputPath(`lesson-cancelled-${width}.png`), fullPage: true });

      const rent = await orderOffering(page, "pavilion", "refund");
      await page.locator('a[data-action="refund"]').click();
      await page.locator("main form button[type=submit]").last().click();
      await expect(page).toHaveURL(/\/orders$/);
      await page.goBack(); // the refund form, now refused
      await page.goBack(); // the order
      await page.reload();
      await expect(page.locator("[data-done]")).toContainText("Вы оформили возврат по этому заказу");
      expect(page.url()).toContain(rent);
      await page.screenshot({ path: info.outputPath(`rent-refunded-${width}.png`), fullPage: true });
    });
  });

  test.describe(`without JavaScript at ${width} px`, () => {
    test.use({ javaScriptEnabled: false, viewport: { width, height: width === 360 ? 740 : 900 } });

    test("'Показать ещё' opens the list with more; the hotel move shows its dates first", async ({ page }, info) => {
      await customerWithHistory(page, 45);
      await page.goto("/orders");
      await page.getByRole("link", { name: "Показать ещё" }).click();
      await expect(page).toHaveURL(/\/orders\?page=2#more-21$/);
      await expect(historyCards(page)).toHaveCount(40);
      await page.screenshot({ path: info.outputPath(`orders-page2-nojs-${width}.png`), fullPage: false });

      await orderOffering(page, "hotel", "transfer");
      await page.locator('a[data-action="transfer"]').click();
      // The month of nights to tap comes first, within the page's first two
      // screens on a phone.
      const month = await page.locator(".sm").boundingBox();
      expect(month?.y ?? Infinity).toBeLessThan(2 * (page.viewportSize()?.height ?? 0));
      await page.locator(".sm").scrollIntoViewIfNeeded();
      await page.screenshot({ path: info.outputPath(`hotel-move-nojs-${width}.png`), fullPage: false });
    });
  });
}
