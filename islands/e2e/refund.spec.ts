import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signInByForm } from "./helpers";

const DEMO = "79000000000";
const TODAY = "/orders/aqua/300005/refund"; // the water-park visit of today: moderation
const CANCEL = "/orders/pavilion/200001/cancel";
const REFUND_DONE =
  "Возврат успешно оформлен. Внимание! Деньги на карту вернутся в течение 5-10 дней (максимально возможный срок - 30 дней).";

// One sign-in for the whole file, the session the other specs made when
// there is one: a phone gets at most 5 codes in 2 hours, one in each
// LK_CODE_INTERVAL (which never ends while LK_TEST_NOW stops the clock).
const state = join(tmpdir(), `lk-e2e-refund-${process.pid}.json`);
test.beforeAll(async ({ browser }) => {
  const ctx = await browser.newContext({ baseURL: process.env.LK_E2E_URL, storageState: { cookies: [], origins: [] } });
  await signInByForm(await ctx.newPage(), DEMO);
  await ctx.storageState({ path: state });
  await ctx.close();
});
test.use({ storageState: state });

type StoredRefund = { path: string; orderId: string; documents: { name: string; size: number }[] };

async function refunds(): Promise<StoredRefund[]> {
  const sandbox = process.env.LK_E2E_SANDBOX;
  if (!sandbox) throw new Error("e2e: LK_E2E_SANDBOX is not set");
  return (await fetch(`${sandbox}/sandbox/refunds`)).json();
}

/** axe finds nothing and the page does not scroll sideways; a screenshot. */
async function check(page: Page, info: TestInfo, name: string, width: number): Promise<void> {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations, `${name}: axe`).toEqual([]);
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, `${name}: page width`).toBeLessThanOrEqual(width);
  await page.screenshot({ path: info.outputPath(`${name}-${width}.png`), fullPage: true });
}

for (const width of [360, 1280]) {
  // axe runs as a script in the page, so these pages are checked with
  // JavaScript on; they have no island, and the flow below is JavaScript off.
  test.describe(`refund and cancel pages at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("the forms and a refused refund pass axe", async ({ page }, info) => {
      expect((await page.goto(CANCEL))?.status()).toBe(200);
      await check(page, info, "cancel", width);
      expect((await page.goto(TODAY))?.status()).toBe(200);
      await check(page, info, "refund", width);
      // Refused: the summary, the messages at the fields, the files kept.
      await page.getByLabel("Подтверждающие документы").setInputFiles([
        { name: "справка.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(1500, 1) },
      ]);
      await page.getByRole("button", { name: "Оформить возврат" }).click();
      await expect(page).toHaveTitle(/^Ошибка: /);
      await expect(page.locator("#error-summary")).toContainText("Укажите причину возврата");
      await expect(page.locator("main")).toContainText("справка.pdf");
      await check(page, info, "refund-refused", width);
      // Remove the kept file again so the next test starts clean.
      await page.getByRole("button", { name: "Удалить файл справка.pdf" }).click();
      await expect(page.getByRole("button", { name: /^Удалить файл/ })).toHaveCount(0);
    });
  });
}

test.describe("a refund in moderation mode with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("reason and two files: the provider gets both", async ({ page }) => {
    await page.goto(TODAY);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Оформить возврат");
    await expect(page.locator("main")).toContainText("Вы уверены что хотите оформить возврат?");
    await expect(page.getByLabel("Фамилия")).toHaveValue("Иванов");
    // Without a reason and documents: refused on the server, answers kept.
    await page.getByLabel("Фамилия").fill("Иванова");
    await page.getByRole("button", { name: "Оформить возврат" }).click();
    await expect(page.locator("#error-summary")).toContainText("Приложите подтверждающий документ");
    await expect(page.getByLabel("Фамилия")).toHaveValue("Иванова");

    const before = (await refunds()).length;
    await page.getByLabel("Причина возврата").fill("Заболел, справка приложена");
    await page.getByLabel("Подтверждающие документы").setInputFiles([
      { name: "справка.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(20_000, 7) },
      { name: "паспорт.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(35_000, 9) },
    ]);
    await page.getByRole("button", { name: "Оформить возврат" }).click();
    await expect(page).toHaveURL(/\/orders$/);
    await expect(page.locator(".notice-ok")).toHaveText(REFUND_DONE);

    const list = await refunds();
    expect(list.length).toBe(before + 1);
    const got = list[list.length - 1];
    expect(got.path).toBe("aqua/registerRefund1C");
    expect(got.orderId).toBe("300005");
    expect(got.documents.map((d) => [d.name, d.size])).toEqual([
      ["справка.pdf", 20_000],
      ["паспорт.jpg", 35_000],
    ]);
  });
});
