// A form sent after its session ended survives the sign-in: /login says
// why, and after the code the customer is back on the form with what they
// had chosen (a water-park session; a refund's reason and its document),
// nothing sent until they tap again. JavaScript off and on, each page kept
// as a screenshot at 360 and 1280 px for a person to look at.
import type { Locator, Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import { lastCode, newPhone, typeCode } from "./helpers";

const KEPT = "Время входа истекло — войдите снова, и мы вернём вас к форме";
const REFUND_DONE =
  "Возврат успешно оформлен. Внимание! Деньги на карту вернутся в течение 5-10 дней (максимально возможный срок - 30 дней).";

type Customer = { digits: string; aqua: string[] };

/** A new customer through the plain forms, and their water-park orders
 *  (with a visit of today added, whose refund needs a reason and documents). */
async function newCustomer(page: Page): Promise<Customer> {
  const { digits } = newPhone();
  const r1 = await page.request.post("/signup", { form: { phone: digits, firstName: "Юлия", lastName: "Формина" }, maxRedirects: 0 });
  expect(r1.status()).toBe(303);
  const r2 = await page.request.post("/login/code", { form: { code: (await lastCode(digits)).code }, maxRedirects: 0 });
  expect(r2.status()).toBe(303);
  const today = await fetch(`${process.env.LK_E2E_SANDBOX}/sandbox/today`, { method: "POST", body: JSON.stringify({ phone: digits }) });
  expect(today.status).toBe(200);
  await page.goto("/orders");
  const aqua = await page
    .locator('section[aria-labelledby="active-h"] a[href^="/orders/aqua/"]')
    .evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute("href") ?? "").filter((h) => /^\/orders\/aqua\/\d+$/.test(h)))]);
  return { digits, aqua };
}

/** The first of the orders' action pages that shows what, opened; "" when none does. */
async function firstPage(page: Page, orders: string[], action: string, what: Locator): Promise<string> {
  for (const o of orders) {
    await page.goto(`${o}/${action}`);
    if ((await what.count()) > 0) return `${o}/${action}`;
  }
  return "";
}

async function providerCalls(path: string): Promise<number> {
  const res = await fetch(`${process.env.LK_E2E_SANDBOX}/sandbox/calls`);
  return ((await res.json()) as Record<string, number>)[path] ?? 0;
}

async function shots(page: Page, info: TestInfo, name: string): Promise<void> {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scroll, `${name} at ${width} px: page width`).toBeLessThanOrEqual(width);
    await page.screenshot({ path: info.outputPath(`${name}-${width}.png`), fullPage: true });
  }
}

/** The session ends (its cookie gone) while the page with the form stays. */
async function endSession(page: Page): Promise<void> {
  await page.context().clearCookies({ name: "__Host-lk_session" });
}

/** Signs in again from /login, with the dialog (JavaScript on) or the code page. */
async function signInAgain(page: Page, digits: string, js: boolean): Promise<void> {
  await page.waitForTimeout(2_100); // the tests' wait between codes (LK_CODE_INTERVAL)
  const phone = page.getByLabel("Номер телефона");
  if (js) await phone.pressSequentially(digits.slice(1));
  else await phone.fill(digits);
  await page.getByRole("button", { name: "Войти" }).click();
  // The code is read once it was sent: the dialog or the code page says so.
  const dialog = page.getByRole(js ? "dialog" : "main");
  await expect(dialog.getByRole("heading", { name: "Готово" })).toBeVisible();
  const { code } = await lastCode(digits);
  if (js) {
    await typeCode(page, code);
    await dialog.getByRole("button", { name: "Подтвердить" }).click();
  } else {
    await page.getByLabel("Код из SMS").fill(code);
    await page.getByRole("button", { name: "Подтвердить" }).click();
  }
}

for (const js of [false, true]) {
  test.describe(`a form sent after its session ended, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 360, height: 900 } });

    test("a water-park move: back on the move with the day and session chosen", async ({ page }, info) => {
      test.setTimeout(120_000);
      const c = await newCustomer(page);
      const move = await firstPage(page, c.aqua, "transfer", page.locator("#transfer-day input[name=date]"));
      expect(move, "a water-park order that moves").not.toBe("");
      const min = (await page.locator("#transfer-day input[name=date]").getAttribute("min")) ?? "";
      const free = page.locator('input[name="sessionId"]:not([disabled]):visible');
      let date = "";
      for (let off = 1; off <= 30 && !date; off++) {
        const d = new Date(`${min}T00:00:00Z`);
        d.setUTCDate(d.getUTCDate() + off);
        const day = d.toISOString().slice(0, 10);
        await page.goto(`${move}?date=${day}`);
        if (js) await expect(page.locator('[data-island="calendar"]')).toHaveAttribute("data-island-state", "mounted");
        if ((await free.count()) > 0) date = day;
      }
      expect(date).not.toBe("");
      const session = (await free.first().getAttribute("value")) ?? "";
      await free.first().check();

      await endSession(page);
      const before = await providerCalls("aqua/transferTicket");
      await page.getByRole("button", { name: "Перенести билеты" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.locator("#kept-notice")).toHaveText(KEPT);
      await shots(page, info, "login-kept");
      await page.setViewportSize({ width: 360, height: 900 });

      await signInAgain(page, c.digits, js);
      await expect(page).toHaveURL(`${move}?date=${date}&sessionId=${encodeURIComponent(session)}`);
      await expect(page.locator(".notice-ok")).toContainText("Мы вернули вас к форме");
      if (js) await expect(page.locator('[data-island="calendar"]')).toHaveAttribute("data-island-state", "mounted");
      await expect(page.locator(`input[name="sessionId"][value="${session}"]:visible`)).toBeChecked();
      await shots(page, info, "move-kept");
      expect(await providerCalls("aqua/transferTicket")).toBe(before);

      // Nothing was sent: the customer's tap sends it.
      await page.getByRole("button", { name: "Перенести билеты" }).click();
      await expect(page.locator(".notice-ok")).toHaveText("Вы успешно перенесли билеты на другую дату");
      expect(await providerCalls("aqua/transferTicket")).toBe(before + 1);
    });

    test("a refund with a document: back with the reason and the file", async ({ page }, info) => {
      test.setTimeout(120_000);
      const c = await newCustomer(page);
      const refund = await firstPage(page, c.aqua, "refund", page.getByLabel("Причина возврата"));
      expect(refund, "a water-park order of today, refunded with a reason").not.toBe("");
      const ticket = page.locator('input[name="tickets"]:not([disabled])').first();
      if ((await ticket.count()) > 0) await ticket.check();
      await page.getByLabel("Причина возврата").fill("Заболел ребёнок, справка приложена");
      await page.getByLabel("Подтверждающие документы").setInputFiles([
        { name: "справка.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(24_000, 5) },
      ]);

      await endSession(page);
      const before = await providerCalls("aqua/registerRefund1C");
      await page.getByRole("button", { name: "Оформить возврат" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.locator("#kept-notice")).toHaveText(KEPT);

      await signInAgain(page, c.digits, js);
      await expect(page).toHaveURL(refund);
      await expect(page.locator(".notice-ok")).toContainText("Мы вернули вас к форме");
      await expect(page.getByLabel("Причина возврата")).toHaveValue("Заболел ребёнок, справка приложена");
      await expect(page.locator("main")).toContainText("справка.pdf");
      await shots(page, info, "refund-kept");
      expect(await providerCalls("aqua/registerRefund1C")).toBe(before);

      await page.setViewportSize({ width: 360, height: 900 });
      await page.getByRole("button", { name: "Оформить возврат" }).click();
      await expect(page).toHaveURL(/\/orders$/);
      await expect(page.locator(".notice-ok")).toHaveText(REFUND_DONE);
      const list = (await (await fetch(`${process.env.LK_E2E_SANDBOX}/sandbox/refunds`)).json()) as {
        documents: { name: string; size: number }[];
      }[];
      expect(list[list.length - 1].documents.map((d) => [d.name, d.size])).toEqual([["справка.pdf", 24_000]]);
    });
  });
}
