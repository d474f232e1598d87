// Never held by an island: a request for an island's file that neither
// answers nor fails (a lossy mobile cell, a captive portal, a proxy that
// holds the connection) leaves the customer on the server's path. The page's
// own deadlines end each wait, never the test's.
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { lastCode, newPhone, signUpNew, tapDay } from "./helpers";

/** Holds every request for url forever (the route is never answered). */
async function stall(target: Page | BrowserContext, url: RegExp): Promise<void> {
  await target.route(url, () => {});
}

test.describe("a stalled island file on the sign-in pages", () => {
  test.use({ viewport: { width: 360, height: 740 }, serviceWorkers: "block" });

  for (const [name, file] of [
    ["React", /\/react-[\w-]+\.js$/],
    ["the code dialog", /\/sms-code-[\w-]+\.js$/],
  ] as const) {
    test(`/login with ${name} stalled reaches the code step within 3 s of the tap`, async ({ page }, info) => {
      // A customer of the account of their own (the demo phone's codes are
      // the other spec files'), on a browser the account has not seen.
      const phone = newPhone();
      expect((await page.request.post("/signup", { form: { phone: phone.digits, firstName: "Лена", lastName: "Ждунова" }, maxRedirects: 0 })).status()).toBe(303);
      expect((await page.request.post("/login/code", { form: { code: (await lastCode(phone.digits)).code }, maxRedirects: 0 })).status()).toBe(303);
      await page.context().clearCookies();
      await page.waitForTimeout(2100); // the tests' wait between codes (LK_CODE_INTERVAL)
      await stall(page, file);
      await page.goto("/login");
      await page.getByLabel("Номер телефона").pressSequentially(phone.digits.slice(1));
      const tap = Date.now();
      await page.getByRole("button", { name: "Войти" }).click();
      await expect(page).toHaveURL(/\/login\/code$/, { timeout: 3000 });
      info.annotations.push({ type: "code step", description: `${Date.now() - tap} ms after the tap` });
      await expect(page.getByLabel("Код из SMS")).toBeVisible();
      await page.screenshot({ path: info.outputPath(`login-stalled-${name === "React" ? "react" : "dialog"}-360.png`) });
    });
  }

  test("/signup with React stalled reaches the code step, and the code signs in", async ({ page }) => {
    await stall(page, /\/react-[\w-]+\.js$/);
    const phone = newPhone();
    await page.goto("/signup");
    await page.getByLabel("Номер телефона").pressSequentially(phone.digits.slice(1));
    await page.getByLabel("Имя").fill("Глеб");
    await page.getByLabel("Фамилия").fill("Заминкин");
    await page.getByRole("button", { name: "Зарегистрироваться" }).click();
    await expect(page).toHaveURL(/\/login\/code$/, { timeout: 3000 });
    await page.getByLabel("Код из SMS").fill((await lastCode(phone.digits)).code);
    await page.getByRole("button", { name: /Подтвердить|Войти/ }).first().click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Здравствуйте, Глеб");
  });
});

test.describe("the calendar's files stalled on the move pages", () => {
  test.use({ viewport: { width: 360, height: 740 }, serviceWorkers: "block" });

  test("12 s after opening, the server's month and form are whole, and the moves complete through them", async ({ page, context }, info) => {
    test.setTimeout(120_000);
    await signUpNew(page, "Тимур", "Долгов");
    const moves: Record<string, string> = {};
    for (const href of await page.locator('section[aria-labelledby="active-h"] a[href^="/orders/"]').evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))) {
      const kind = href.split("/")[2];
      if (/^\/orders\/\w+\/\d+$/.test(href) && !moves[kind]) moves[kind] = `${href}/transfer`;
    }
    // React, flatpickr and the islands' own files: every request for them
    // stalls, on every page of the context.
    await stall(context, /\/(react|calendar|flatpickr|slot-picker)-[\w-]+\.(js|css)$/);
    const pages: Record<string, Page> = {};
    for (const kind of ["glk", "aqua", "hotel", "pavilion", "celRoom"]) {
      expect(moves[kind], `a ${kind} order`).toBeTruthy();
      pages[kind] = await context.newPage();
      await pages[kind].goto(moves[kind], { waitUntil: "commit" });
    }
    await page.waitForTimeout(12_000);
    for (const [kind, p] of Object.entries(pages)) {
      const islands = p.locator("[data-island]");
      for (let i = 0; i < (await islands.count()); i++) {
        await expect(islands.nth(i), `${kind}: island ${i} given up`).toHaveAttribute("data-island-state", "failed");
      }
      // Nothing the server rendered is hidden, and no room is kept for what
      // never came.
      const room = await p.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>("[data-island]")).map((el) => {
          const fallback = el.querySelector<HTMLElement>(":scope > [data-island-fallback]");
          return { blank: el.getBoundingClientRect().height - (fallback?.getBoundingClientRect().height ?? 0), hidden: !fallback || fallback.hidden || fallback.offsetHeight === 0 };
        }),
      );
      for (const r of room) {
        expect(r.hidden, `${kind}: the server's version hidden`).toBe(false);
        expect(r.blank, `${kind}: blank room`).toBeLessThanOrEqual(120);
      }
      await expect(p.locator(".sm a.d").first(), `${kind}: the server's month`).toBeVisible();
      await p.screenshot({ path: info.outputPath(`${kind}-stalled-360.png`), fullPage: true });
    }

    // The moves, through the server's month and form, files still stalled.
    const lesson = pages.glk;
    const min = JSON.parse((await lesson.locator("#calendar-props").textContent()) ?? "{}").min as string;
    for (let off = 1; off <= 20 && (await lesson.getByRole("button", { name: "Выбрать" }).count()) === 0; off++) {
      await tapDay(lesson, addDays(min, off));
    }
    await lesson.getByRole("button", { name: "Выбрать" }).first().click();
    await expect(lesson.locator(".notice-ok")).toHaveText("Перенос выполнен успешно");

    const rent = pages.pavilion;
    for (let off = 1; off <= 20 && (await rent.locator('input[name="from"]:not([disabled])').count()) < 3; off++) {
      await tapDay(rent, addDays(min, off));
    }
    const need = Number(/оплачена на (\d+) ч/.exec((await rent.locator("main").textContent()) ?? "")?.[1] ?? "0");
    const starts = await rent.locator('input[name="from"]').evaluateAll((els) => els.map((e) => ({ v: (e as HTMLInputElement).value, free: !(e as HTMLInputElement).disabled })));
    const at = starts.findIndex((_, i) => starts.slice(i, i + need).length === need && starts.slice(i, i + need).every((s) => s.free));
    expect(at, "a run of free hours").toBeGreaterThanOrEqual(0);
    await rent.locator(`input[name="from"][value="${starts[at].v}"]`).check();
    const end = await rent.locator('input[name="to"]').nth(at + need - 1).getAttribute("value");
    await rent.locator(`input[name="to"][value="${end}"]`).check();
    await rent.getByRole("button", { name: "Перенести аренду" }).click();
    await expect(rent.locator(".notice-ok")).toHaveText("Перенос выполнен успешно");
  });
});

test.describe("an island that comes after the customer started", () => {
  test.use({ viewport: { width: 360, height: 740 }, serviceWorkers: "block" });

  test("leaves the server's month to a customer whose focus is on a day", async ({ page }, info) => {
    await signUpNew(page, "Фокус", "Клавишин");
    const held = await openHeld(page, "glk");
    await expect(page.locator("[data-island=calendar]")).toHaveAttribute("data-island-state", "loading");
    const day = page.locator(".sm a.d").nth(3);
    await day.focus();
    const name = await day.getAttribute("aria-label");
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await Promise.all(held.splice(0).map((go) => go()));
    await page.waitForTimeout(1000);
    await expect(page.locator("[data-island=calendar]")).toHaveAttribute("data-island-state", "kept");
    await expect(page.locator(".cal .flatpickr-calendar")).toHaveCount(0);
    await expect(page.locator(":focus")).toHaveAttribute("aria-label", name ?? "");
    await page.keyboard.press("Enter");
    await expect(page.locator('.sm a[aria-current="date"]')).toHaveAttribute("aria-label", name ?? "");
    await page.screenshot({ path: info.outputPath("kept-360.png") });
  });
});

test.describe("the hotel's typed dates", () => {
  test.use({ viewport: { width: 360, height: 740 }, serviceWorkers: "block" });

  test("keep what was typed before the island came, beside it", async ({ page }) => {
    await signUpNew(page, "Вера", "Вводова");
    const held = await openHeld(page, "hotel");
    const min = JSON.parse((await page.locator("#calendar-props").textContent()) ?? "{}").min as string;
    await page.getByLabel("Дата заезда").fill(addDays(min, 5));
    await page.getByLabel("Дата выезда").fill(addDays(min, 7));
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await Promise.all(held.splice(0).map((go) => go()));
    await expect(page.locator("[data-island=calendar]")).toHaveAttribute("data-island-state", "mounted");
    await expect(page.getByLabel("Дата заезда")).toHaveValue(addDays(min, 5));
    await expect(page.getByLabel("Дата выезда")).toHaveValue(addDays(min, 7));
    await expect(page.getByRole("button", { name: "Показать даты" })).toBeVisible();
  });
});

/** Opens the move page of the customer's first order of kind with the
 *  calendar island's files held (the mount loop itself comes); the
 *  returned list lets each held request go on. */
async function openHeld(page: Page, kind: string): Promise<(() => Promise<void>)[]> {
  const href = await page.locator(`section[aria-labelledby="active-h"] a[href^="/orders/${kind}/"]`).first().getAttribute("href");
  const held: (() => Promise<void>)[] = [];
  await page.route(/\/(react|calendar|flatpickr)-[\w-]+\.(js|css)$/, (route) => {
    held.push(() => route.continue().catch(() => {}));
  });
  await page.goto(`${href}/transfer`);
  return held;
}

function addDays(iso: string, n: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
