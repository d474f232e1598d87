import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

async function expectLoginPage(page: Page) {
  await page.goto("/login");
  await expect(page).toHaveTitle(/Авторизация/);
  await expect(page.getByRole("button", { name: "Войти" })).toBeVisible();
  await expect(page.locator("body")).toContainText("Нет аккаунта?");
  await expect(page.locator('a[href="/signup"]').first()).toBeVisible();
}

test.describe("login page, JavaScript on", () => {
  test("shows the form; the SMS-code island waits for it to be sent", async ({ page }) => {
    // The mount loop warns "[islands] …" whenever it keeps a fallback.
    const warnings: string[] = [];
    page.on("console", (m) => {
      if (m.text().startsWith("[islands]")) warnings.push(m.text());
    });
    await expectLoginPage(page);
    await expect(page.locator('[data-island="sms-code"]')).toHaveAttribute("data-island-state", "waiting");
    expect(warnings).toEqual([]);
  });

  test("has no axe violations", async ({ page }) => {
    await expectLoginPage(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
  });
});

test.describe("login page, JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("shows the form", async ({ page }) => {
    await expectLoginPage(page);
  });

  // axe runs inside the page, so it cannot run with JavaScript disabled.
  // Audit the same server HTML with every script request refused instead:
  // the page then stays exactly as a browser without JavaScript shows it
  // (except <noscript> content, which the templates do not rely on).
  test("has no axe violations", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: true });
    try {
      const page = await context.newPage();
      await page.route("**/*", (route) =>
        route.request().resourceType() === "script" ? route.abort() : route.continue(),
      );
      await expectLoginPage(page);
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
