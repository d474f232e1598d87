// What a customer meets where a tap can no longer do what it did when the
// page was drawn, with JavaScript on and off: an unpaid water-park order
// says why its tickets are not there and how to pay; 'Мой билет' and
// 'Мой ваучер' give the file, or, when the order was cancelled elsewhere, a
// page saying why with the way back (never a download that fails without a
// word); the move page of a booking moved in another tab leads to the
// booking it became.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { lastCode, newPhone, signInByForm } from "./helpers";

const DEMO = "79000000000";
const UNPAID = "/orders/aqua/300002"; // the demo's tickets awaiting payment
// One sign-in of the demo for the file: its phone gets at most 5 codes in
// 2 hours, and the other spec files use it too.
const STATE = join(mkdtempSync(join(tmpdir(), "refusals-state-")), "state.json");

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ baseURL: process.env.LK_E2E_URL, storageState: { cookies: [], origins: [] } });
  await signInByForm(await context.newPage(), DEMO);
  await context.storageState({ path: STATE });
  await context.close();
});

/** Signs up a new customer (the sample orders are theirs to change);
 *  returns their first active order's path of each kind. */
async function newCustomer(page: Page): Promise<Record<string, string>> {
  const { digits } = newPhone();
  const r1 = await page.request.post("/signup", { form: { phone: digits, firstName: "Анна", lastName: "Тестова" }, maxRedirects: 0 });
  expect(r1.status()).toBe(303);
  const r2 = await page.request.post("/login/code", { form: { code: (await lastCode(digits)).code }, maxRedirects: 0 });
  expect(r2.status()).toBe(303);
  await page.goto("/orders");
  const out: Record<string, string> = {};
  for (const kind of ["glk", "aqua", "hotel"]) {
    const hrefs = await page
      .locator(`section[aria-labelledby="active-h"] a[href^="/orders/${kind}/"]`)
      .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? "").filter((h) => /^\/orders\/\w+\/\d+$/.test(h)));
    out[kind] = hrefs[0];
  }
  return out;
}

for (const width of [360, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 }, storageState: STATE });

    test("an unpaid water-park order says why its tickets are not there and how to pay", async ({ page }, info) => {
      expect((await page.goto(UNPAID))?.status()).toBe(200);
      const note = page.locator("article [data-unpaid]");
      await expect(note).toContainText("Билет будет доступен после оплаты всех билетов заказа.");
      await expect(note).toContainText("Оплатить заказ в личном кабинете нельзя: как его оплатить, подскажут в службе поддержки");
      await expect(note.getByRole("link")).toHaveAttribute("href", /^tel:/);
      await expect(page.getByRole("link", { name: "Мой билет" })).toHaveCount(0);
      await expect(page.getByText("(ожидает оплаты)").first()).toBeVisible();
      // Nothing scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await note.scrollIntoViewIfNeeded();
      await page.screenshot({ path: info.outputPath(`unpaid-${width}.png`), fullPage: true });
    });
  });
}

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("'Мой билет' gives the file; 'Мой ваучер' of a booking cancelled in another tab says why and leads back", async ({ page, context }, info) => {
      const orders = await newCustomer(page);
      // The file comes as an attachment: the page stays.
      await page.goto(orders.aqua);
      const ticket = page.getByRole("link", { name: "Мой билет" });
      expect(await ticket.getAttribute("download")).toBeNull();
      const [file] = await Promise.all([page.waitForEvent("download"), ticket.click()]);
      expect(file.suggestedFilename()).toBe(`aqua-${orders.aqua.split("/").pop()}.pdf`);
      await expect(page).toHaveURL(new RegExp(`${orders.aqua}$`));

      // The hotel's page stays open while another tab cancels the booking.
      await page.goto(orders.hotel);
      const voucher = page.getByRole("link", { name: "Мой ваучер" });
      await expect(voucher).toBeVisible();
      const other = await context.newPage();
      await other.goto(`${orders.hotel}/cancel`);
      await other.locator("main form[method=post] button[type=submit]").first().click();
      await expect(other.locator(".notice-ok")).toContainText("Бронирование отменено.");
      await other.close();

      await voucher.click();
      await expect(page.locator("main h1")).toHaveText("Документ недоступен");
      await expect(page.locator("main [data-refusal]")).toContainText("Заказ отменён, поэтому документ недоступен.");
      await page.screenshot({ path: info.outputPath(`voucher-refused-js-${js ? "on" : "off"}-1280.png`), fullPage: true });
      await page.setViewportSize({ width: 360, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.screenshot({ path: info.outputPath(`voucher-refused-js-${js ? "on" : "off"}-360.png`), fullPage: true });
      await page.getByRole("link", { name: "Вернуться к заказу" }).click();
      await expect(page).toHaveURL(new RegExp(`${orders.hotel}$`));
      await expect(page.getByRole("link", { name: "Мой ваучер" })).toHaveCount(0);
    });
  });
}

test.describe("JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the move page of a booking moved in another tab leads to the booking it became", async ({ page, context }, info) => {
    const orders = await newCustomer(page);
    const move = `${orders.glk}/transfer`;
    // This tab shows a day with lessons to choose.
    await page.goto(move);
    const days = await page.locator(".sm a.d").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    for (const d of days) {
      await page.goto(new URL(d, page.url()).toString());
      if ((await page.getByRole("button", { name: /^Выбрать/ }).count()) > 0) break;
    }
    // Another tab moves the lesson to the same day's other lesson.
    const other = await context.newPage();
    await other.goto(page.url());
    await other.getByRole("button", { name: /^Выбрать/ }).last().click();
    await expect(other.locator(".notice-ok")).toHaveText("Перенос выполнен успешно");
    const moved = new URL(other.url()).pathname;
    const newID = moved.split("/").pop();
    await other.close();

    await page.getByRole("button", { name: /^Выбрать/ }).last().click();
    await expect(page.locator("main h1")).toHaveText("Заказ перенесён");
    await expect(page.locator("main [data-refusal]")).toContainText(`теперь это заказ № ${newID}.`);
    await page.screenshot({ path: info.outputPath("moved-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.screenshot({ path: info.outputPath("moved-360.png"), fullPage: true });
    await page.getByRole("link", { name: `Открыть заказ № ${newID}` }).click();
    await expect(page).toHaveURL(new RegExp(`${moved}$`));
    await expect(page.locator("main h1")).not.toHaveText("Заказ перенесён");
  });
});
