// What a customer stumbles on in the order pages and the calendars: the
// order's buttons on a phone's first screen, with what each money-back
// button does beside them; and a screenshot of each page at 360 and 1280 px
// (islands/test-results/…/<page>-<width>.png) for a person to look at.
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { clickDay, signUpNew } from "./helpers";

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
  test.setTimeout(120_000);
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
      // The order's document and actions; adding it to Wallet and to a
      // calendar comes last.
      const buttons = page.locator("article .actions .btn:not([data-action=calendar]):not([data-action=wallet])");
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

type CalendarProps = {
  min: string;
  max: string;
  today: string;
  value?: string;
  days?: { date: string; vacant: number; family: number }[];
  rooms?: number;
  family?: number;
};

/** The calendar's props as the server handed them to the island. */
async function calendarProps(page: Page): Promise<CalendarProps> {
  return JSON.parse((await page.locator("#calendar-props").textContent()) ?? "{}");
}

/** The move page of the customer's first order of kind that offers one. */
async function movePage(page: Page, kind: string): Promise<string> {
  for (const href of orders.filter((h) => h.startsWith(`/orders/${kind}/`))) {
    await page.goto(href);
    const link = page.locator(`main a[href="${href}/transfer"]`);
    if ((await link.count()) > 0) return `${href}/transfer`;
  }
  throw new Error(`e2e: no movable ${kind} order`);
}

/** The iso day of every calendar day marked as today. */
/** The months the calendar shows, as YYYY-MM. */
async function shownMonths(page: Page): Promise<string[]> {
  await expect(page.locator(".cal .flatpickr-calendar")).toHaveCount(1);
  return page.evaluate(() => {
    const input = document.querySelector(".cal input") as HTMLInputElement & { _flatpickr?: { currentMonth: number; currentYear: number } };
    const n = Number(document.querySelector(".cal[data-months]")?.getAttribute("data-months") ?? "1");
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const d = new Date(input._flatpickr?.currentYear ?? 0, (input._flatpickr?.currentMonth ?? 0) + i, 1);
      out.push(`${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}`);
    }
    return out;
  });
}

/** The resort's today is ringed, whatever the browser's zone (LK_E2E_TZ),
 *  when its month is shown (a calendar opens where the booking is). */
async function expectTodayRinged(page: Page, today: string): Promise<void> {
  const shown = await shownMonths(page);
  expect(await ringed(page)).toEqual(shown.includes(today.slice(0, 7)) ? [today] : []);
}

async function ringed(page: Page): Promise<string[]> {
  await expect(page.locator(".cal .flatpickr-calendar")).toHaveCount(1);
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement & { dateObj?: Date }>(".cal .flatpickr-day.today")).map((el) => {
      const d = el.dateObj as Date;
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    }),
  );
}

function addDays(iso: string, n: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

test("the hotel calendar answers every tap, and offers 'Готово' only for a range it accepts", async ({ page }, info) => {
  await signIn(page);
  const url = await movePage(page, "hotel");
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 740 : 900 });
    await page.goto(url);
    await expect(page.locator("[data-island=calendar]")).toHaveAttribute("data-island-state", "mounted");
    const p = await calendarProps(page);
    await expectTodayRinged(page, p.today);
    const free = (d: string) => {
      const day = p.days?.find((x) => x.date === d);
      return !!day && day.vacant >= (p.rooms ?? 1) && day.family >= (p.family ?? 0);
    };
    // A free night, a full one after it, and a day beyond: a check-out past
    // a full night cannot be taken.
    let checkIn = "";
    for (let d = p.min; d < p.max && !checkIn; d = addDays(d, 1)) {
      if (free(d) && !free(addDays(d, 1)) && addDays(d, 2) <= p.max) checkIn = d;
    }
    expect(checkIn, "a free night before a full one").not.toBe("");
    const say = page.locator("[data-island-root] .cal-say");
    const done = page.locator('.actions > button[type="submit"]');
    await expect(done).toBeHidden();
    expect(await clickDay(page, checkIn)).toBe(true);
    await expect(say).toContainText("Теперь выберите день выезда");
    expect(await clickDay(page, addDays(checkIn, 2))).toBe(true);
    await expect(say).toContainText("занята, поэтому выезд");
    await expect(say).toContainText("или нажмите на день заезда");
    await expect(done).toBeHidden();
    await page.screenshot({ path: info.outputPath(`hotel-move-${width}.png`), fullPage: true });
    // The full night's own morning is a check-out.
    expect(await clickDay(page, addDays(checkIn, 1))).toBe(true);
    await expect(say).toContainText("Выезд");
  }
});

test("the rent calendar opens on the month the server's month shows, the booked day's, and rings the resort's today", async ({ page }) => {
  await signIn(page);
  const url = await movePage(page, "pavilion");
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(url);
  const p = await calendarProps(page);
  await expectTodayRinged(page, p.today);
  const [month] = await shownMonths(page);
  expect(month).toBe((p.value ?? p.min).slice(0, 7));
  expect(month).toBe(await page.locator(".sm").getAttribute("data-month"));
});

test("JavaScript off: the hotel move page shows the month of nights above the buttons", async ({ browser }, info) => {
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  await ctx.addCookies(cookies);
  const page = await ctx.newPage();
  const url = await movePage(page, "hotel");
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 740 : 900 });
    await page.goto(url);
    const month = await page.locator(".sm").boundingBox();
    const button = await page.locator('.actions > a.btn').boundingBox();
    expect(month && button && month.y + month.height <= button.y, "the nights above the buttons").toBeTruthy();
    await page.screenshot({ path: info.outputPath(`hotel-move-nojs-${width}.png`), fullPage: true });
  }
  await ctx.close();
});
