import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signInByForm } from "./helpers";

const DEMO = "79000000000";
const KINDS = ["glk", "pavilion", "aqua", "hotel", "celRoom"];

/** One order page of each kind, as the orders page links them. */
async function orderLinks(page: Page): Promise<string[]> {
  await page.goto("/orders");
  const hrefs = await page.locator('main a[href^="/orders/"]').evaluateAll((as) =>
    as.map((a) => a.getAttribute("href") ?? ""),
  );
  return KINDS.map((kind) => {
    const href = hrefs.find((h) => h.startsWith(`/orders/${kind}/`) && !h.endsWith(".pdf"));
    expect(href, `a link to a ${kind} order`).toBeTruthy();
    return href as string;
  });
}

test.describe("the account at 360 px", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("every page: no axe violations, no sideways scroll, a screenshot", async ({ page }, info) => {
    test.setTimeout(120_000); // axe on every page of the account, a dozen of them
    await signInByForm(page, DEMO);
    const pages = ["/", "/orders", ...(await orderLinks(page)), "/profile/edit"];
    for (const path of pages) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations, `${path}: axe`).toEqual([]);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${path}: page width`).toBeLessThanOrEqual(360);
      const name = path === "/" ? "home" : path.slice(1).replaceAll("/", "-");
      await page.screenshot({ path: info.outputPath(`${name}-360.png`), fullPage: true });
    }
  });
});

test.describe("the account with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("orders of five kinds, a detail page and its ticket", async ({ page }) => {
    await signInByForm(page, DEMO);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Здравствуйте/);
    await page.getByRole("link", { name: "Заказы", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Активные заказы" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "История заказов" })).toBeVisible();

    const links = await orderLinks(page);
    await page.goto(links[KINDS.indexOf("aqua")]);
    await expect(page.locator("main")).toContainText("₽");
    const ticket = page.getByRole("link", { name: "Мой билет" });
    if ((await ticket.count()) > 0) {
      const href = (await ticket.getAttribute("href")) ?? "";
      const pdf = await page.request.get(href);
      expect(pdf.headers()["content-type"]).toBe("application/pdf");
      expect(pdf.headers()["content-disposition"]).toContain("aqua-");
      expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
    }
    const other = await page.request.get("/orders/glk/does-not-exist");
    expect(other.status()).toBe(404);
  });
});

test.describe("profile with JavaScript on", () => {
  test("the birth date gets its dots while typing, and the edit is saved", async ({ page }) => {
    await signInByForm(page, DEMO);
    await page.goto("/profile/edit");
    const birthday = page.getByLabel("Дата рождения");
    await expect(birthday).toHaveAttribute("data-enhance-state", "done");
    await birthday.fill("");
    await birthday.pressSequentially("14031985");
    await expect(birthday).toHaveValue("14.03.1985");
    await page.getByRole("button", { name: "Сохранить" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("main")).toContainText("14.03.1985");
  });
});
