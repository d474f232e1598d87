// Moving a lesson, water-park tickets and a hotel stay (issue 9), with
// JavaScript on (the calendar island, one month at 360 px, two at 1280 px)
// and off (the plain forms). Each test signs up a new customer, whose sample
// orders can each be moved once.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { dayName } from "../calendar/days";
import { clickDay, lastCode, newPhone, tapDay } from "./helpers";

type Props = {
  min: string;
  days?: { date: string; vacant: number; family: number; price: number }[];
  rooms?: number;
  family?: number;
  amount?: number;
};

/** Signs up a new customer through the plain forms; returns their order paths by kind. */
async function newCustomer(page: Page): Promise<Record<string, string>> {
  const { digits } = newPhone();
  const r1 = await page.request.post("/signup", { form: { phone: digits, firstName: "Анна", lastName: "Тестова" }, maxRedirects: 0 });
  expect(r1.status()).toBe(303);
  const { code } = await lastCode(digits);
  const r2 = await page.request.post("/login/code", { form: { code }, maxRedirects: 0 });
  expect(r2.status()).toBe(303);
  await page.goto("/orders");
  const out: Record<string, string> = {};
  for (const kind of ["glk", "aqua", "hotel"]) {
    const hrefs = await page.locator(`section[aria-labelledby="active-h"] a[href^="/orders/${kind}/"]`).evaluateAll((as) =>
      as.map((a) => a.getAttribute("href") ?? "").filter((h) => /^\/orders\/\w+\/\d+$/.test(h)),
    );
    out[kind] = hrefs[0];
  }
  return out;
}

async function axe(page: Page, what: string) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(result.violations, `${what}: axe`).toEqual([]);
}

async function props(page: Page): Promise<Props> {
  return JSON.parse((await page.locator("#calendar-props").textContent()) ?? "{}");
}

/** A hotel range of the order's length that is free and costs what was paid. */
function hotelRange(p: Props, nights: number): [string, string] {
  const days = p.days ?? [];
  const ok = (d: Props["days"] extends (infer T)[] | undefined ? T : never) => d.vacant >= (p.rooms ?? 1) && d.family >= (p.family ?? 0);
  for (let i = 1; i + nights <= days.length; i++) {
    const span = days.slice(i, i + nights);
    const sum = span.reduce((s, d) => s + d.price, 0);
    if (span.every(ok) && Math.abs(sum - (p.amount ?? 0)) < 0.01) {
      const end = new Date(`${span[span.length - 1].date}T00:00:00Z`);
      end.setUTCDate(end.getUTCDate() + 1);
      return [span[0].date, end.toISOString().slice(0, 10)];
    }
  }
  throw new Error("no valid hotel range");
}

/** "2026-11-24" as the page shows it, "24.11.2026". */
function dmy(iso: string): string {
  return `${iso.slice(8)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
}

function addDays(iso: string, n: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

for (const { width, months } of [
  { width: 360, months: 1 },
  { width: 1280, months: 2 },
]) {
  test.describe(`transfers with JavaScript at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("a lesson, water-park tickets and a hotel stay move through the calendar", async ({ page }, info) => {
      test.setTimeout(90_000);
      const orders = await newCustomer(page);

      // Lesson: a day in the calendar, its lessons fetched in place.
      await page.goto(`${orders.glk}/transfer`);
      await expect(page.locator(".cal .flatpickr-calendar")).toBeVisible();
      await expect(page.locator(".cal .flatpickr-month")).toHaveCount(months);
      // The form of a typed day stays beside the island.
      await expect(page.locator("#transfer-day")).toBeVisible();
      await axe(page, "lesson transfer");
      await page.screenshot({ path: info.outputPath(`lesson-${width}.png`), fullPage: true });
      const min = (await props(page)).min;
      const fake = process.env.LK_TEST_NOW;
      if (fake) {
        // The server and the browser both stand at the instant given.
        expect(min).toBe(new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Moscow" }).format(new Date(fake)));
        expect(await page.evaluate(() => Date.now())).toBe(new Date(fake).getTime());
      }
      let found = false;
      for (let off = 1; off <= 20 && !found; off++) {
        const day = addDays(min, off);
        await clickDay(page, day);
        await expect(page.locator("[data-island-root] fieldset.choices legend")).toContainText(dmy(day));
        found = (await page.locator("[data-island-root]").getByRole("button", { name: "Выбрать" }).count()) > 0;
        // 'Готово' only once both the day and a lesson are chosen.
        await expect(page.getByRole("button", { name: "Готово" })).toHaveCount(0);
      }
      expect(found).toBe(true);
      await page.locator("[data-island-root]").getByRole("button", { name: "Выбрать" }).first().click();
      await page.getByRole("button", { name: "Готово" }).click();
      await expect(page.locator(".notice-ok")).toHaveText("Перенос выполнен успешно");
      await expect(page).toHaveURL(/\/orders\/glk\/\d+$/);

      // Water park: the other weekday class cannot be chosen.
      await page.goto(`${orders.aqua}/transfer`);
      await expect(page.locator(".cal .flatpickr-day.flatpickr-disabled:not(.prevMonthDay):not(.nextMonthDay)").first()).toBeVisible();
      await axe(page, "water-park transfer");
      await page.screenshot({ path: info.outputPath(`aqua-${width}.png`), fullPage: true });
      await page.waitForLoadState("networkidle");
      if ((await page.locator('input[name="sessionId"]:not([disabled])').count()) === 0) {
        const p = await props(page);
        for (let off = 1; off <= 30; off++) {
          const day = addDays(p.min, off);
          if (!(await clickDay(page, day))) continue;
          await expect(page.locator("[data-island-root] fieldset.choices legend")).toContainText(`${day.slice(8)}.${day.slice(5, 7)}`);
          if ((await page.locator('input[name="sessionId"]:not([disabled])').count()) > 0) break;
        }
      }
      await page.locator('[data-island-root] input[name="sessionId"]:not([disabled])').first().check();
      await page.getByRole("button", { name: "Перенести билеты" }).click();
      await expect(page.locator(".notice-ok")).toHaveText("Вы успешно перенесли билеты на другую дату");

      // Hotel: a range; 'Готово' only once both ends are chosen.
      await page.goto(`${orders.hotel}/transfer`);
      await expect(page.locator(".cal .flatpickr-calendar")).toBeVisible();
      await expect(page.locator(".cal .flatpickr-month")).toHaveCount(months);
      // Opened, it judges nothing yet: the current stay is shown as such.
      await expect(page.locator("main .notice-err")).toHaveCount(0);
      await expect(page.locator("main")).toContainText("Сейчас: ");
      await expect(page.getByRole("button", { name: "Готово" })).toBeHidden();
      await axe(page, "hotel transfer");
      await page.screenshot({ path: info.outputPath(`hotel-${width}.png`), fullPage: true });
      const hp = await props(page);
      const [from, to] = hotelRange(hp, 2);
      // Both clicks must take: a refused one would leave the current stay
      // chosen and 'Готово' shown for the wrong reason.
      expect(await clickDay(page, from), `check-in ${from}`).toBe(true);
      await expect(page.locator("[data-island-root] .cal-sum")).toContainText(`Заезд: ${dmy(from)}, Выезд: —`);
      await expect(page.getByRole("button", { name: "Готово" })).toBeHidden();
      expect(await clickDay(page, to), `check-out ${to}`).toBe(true);
      await expect(page.locator("[data-island-root] .cal-sum")).toContainText(`Заезд: ${dmy(from)}, Выезд: ${dmy(to)}`);
      await expect(page.getByRole("button", { name: "Готово" })).toBeVisible();
      await page.getByRole("button", { name: "Готово" }).click();
      await expect(page.locator(".notice-ok")).toHaveText("Перенос бронирования выполнен успешно.");
    });
  });
}

test.describe("transfers without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the pages as the server sends them (the island script blocked): axe", async ({ browser }) => {
    // axe needs script in the page, so it reads the no-JS pages with the
    // island's files refused: the same HTML, and proof the page is complete
    // when the island fails to load.
    const ctx = await browser.newContext({ javaScriptEnabled: true });
    const page = await ctx.newPage();
    await page.route("**/static/dist/**", (r) => r.abort());
    const orders = await newCustomer(page);
    for (const kind of ["glk", "aqua", "hotel"]) {
      await page.goto(`${orders[kind]}/transfer`);
      await expect(page.locator(".sm a.d").first()).toBeVisible();
      await expect(page.locator(".cal .flatpickr-calendar")).toHaveCount(0);
      await axe(page, `${kind} transfer without the island`);
    }
    await ctx.close();
  });

  test("a lesson, water-park tickets and a hotel stay move by tapping days in the server's month", async ({ page }, info) => {
    const orders = await newCustomer(page);

    await page.goto(`${orders.glk}/transfer`);
    // Every day of the window can be tapped, named as it is said.
    const min = (await props(page)).min;
    await expect(page.locator(".sm").getByRole("link", { name: /^\d{1,2} [а-я]+ \d{4}, [а-я]+/ })).toHaveCount(await windowDays(page));
    for (let off = 1; off <= 20; off++) {
      expect(await tapDay(page, addDays(min, off)), `lesson day +${off}`).toBe(true);
      await expect(page.locator("fieldset.choices legend")).toContainText(dmy(addDays(min, off)));
      if ((await page.getByRole("button", { name: "Выбрать" }).count()) > 0) break;
    }
    await page.screenshot({ path: info.outputPath("lesson-nojs-360.png"), fullPage: true });
    await page.getByRole("button", { name: "Выбрать" }).last().click();
    await expect(page.locator(".notice-ok")).toHaveText("Перенос выполнен успешно");

    await page.goto(`${orders.aqua}/transfer`);
    const amin = (await props(page)).min;
    for (let off = 0; off <= 30 && (await page.locator('input[name="sessionId"]:not([disabled])').count()) === 0; off++) {
      await tapDay(page, addDays(amin, off));
    }
    await page.locator('input[name="sessionId"]:not([disabled])').first().check();
    await page.getByRole("button", { name: "Перенести билеты" }).click();
    await expect(page.locator(".notice-ok")).toHaveText("Вы успешно перенесли билеты на другую дату");

    // A check-in, then a check-out; 'Готово' only for a stay the rules take.
    await page.goto(`${orders.hotel}/transfer`);
    await page.screenshot({ path: info.outputPath("hotel-nojs.png"), fullPage: true });
    await expect(page.getByRole("button", { name: "Готово" })).toBeHidden();
    const [from, to] = hotelRange(await props(page), 2);
    expect(await tapDay(page, from), `check-in ${from}`).toBe(true);
    await expect(page.locator(".cal-say")).toHaveText(`Заезд ${dmy(from)}. Теперь выберите день выезда.`);
    await expect(page.getByRole("button", { name: "Готово" })).toBeHidden();
    expect(await tapDay(page, to), `check-out ${to}`).toBe(true);
    await expect(page.locator(".cal-sum")).toContainText(`Заезд: ${dmy(from)}, Выезд: ${dmy(to)}`);
    await page.getByRole("button", { name: "Готово" }).click();
    await expect(page.locator(".notice-ok")).toHaveText("Перенос бронирования выполнен успешно.");
  });

  test("a day typed rather than tapped", async ({ page }) => {
    const orders = await newCustomer(page);
    await page.goto(`${orders.glk}/transfer`);
    const min = (await props(page)).min;
    await page.locator("#transfer-day input[name=date]").fill(addDays(min, 3));
    await page.getByRole("button", { name: "Показать занятия" }).click();
    await expect(page.locator("fieldset.choices legend")).toContainText(dmy(addDays(min, 3)));
    await expect(page.locator('.sm a[aria-current="date"]')).toHaveAttribute("aria-label", new RegExp(`^${dayName(addDays(min, 3))}`));
  });
});

/** The days of the window among the months the server's month shows (both,
 *  one below the other, without JavaScript). */
async function windowDays(page: Page): Promise<number> {
  const p = JSON.parse((await page.locator("#calendar-props").textContent()) ?? "{}") as { min: string; max: string };
  const first = await page.locator(".sm").getAttribute("data-month");
  let n = 0;
  for (let d = p.min; d <= p.max; d = addDays(d, 1)) {
    const months = (Number(d.slice(0, 4)) - Number(first!.slice(0, 4))) * 12 + Number(d.slice(5, 7)) - Number(first!.slice(5, 7));
    if (months === 0 || months === 1) n++;
  }
  return n;
}
