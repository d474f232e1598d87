// Every move with the keyboard alone, as the calendar's day buttons take it:
// Tab into the calendar (one day in the Tab order), the arrows to a day,
// Enter or Space to choose it, Tab on to the choices and the page's button.
// Each calendar's days are read as a screen reader gets them: Russian names
// with the month in the genitive, their price or 'нет мест', disabled and
// pressed states, the booking marked. And a choice made in the server's form
// before the islands come is still chosen once they have.
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page, Route } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signUpNew } from "./helpers";

/** A shown day of the calendar as the accessibility tree gets it. */
type ReadDay = { iso: string; name: string; role: string; pressed: string; disabled: boolean; tab: number };

type Props = {
  min: string;
  max: string;
  value?: string;
  booked?: string;
  stay?: [string, string];
  days?: { date: string; vacant: number; family: number; price: number; label: string }[];
  rooms?: number;
  family?: number;
  amount?: number;
};

// A day named as a person says it, taken from the platform's own Russian
// (Intl writes the month in the genitive: "2 декабря 2026 г."), so the
// expected names do not come from the code under test.
const dateRu = new Intl.DateTimeFormat("ru-RU", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
const weekdayRu = new Intl.DateTimeFormat("ru-RU", { weekday: "long", timeZone: "UTC" });
function spoken(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  return `${dateRu.format(d).replace(/\s*г\.$/, "")}, ${weekdayRu.format(d)}`;
}

function addDays(iso: string, n: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

function dmy(iso: string): string {
  return `${iso.slice(8)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
}

async function props(page: Page, id = "calendar-props"): Promise<Props> {
  return JSON.parse((await page.locator(`#${id}`).textContent()) ?? "{}");
}

/** The customer's first order of kind, as the order list links it. */
async function orderOf(page: Page, kind: string): Promise<string> {
  await page.goto("/orders");
  const href = await page.locator(`section[aria-labelledby="active-h"] a[href^="/orders/${kind}/"]`).first().getAttribute("href");
  if (!href) throw new Error(`e2e: no ${kind} order`);
  return href;
}

/** Opens a move page and waits for its islands. */
async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  for (const island of await page.locator("[data-island]").all()) {
    await expect(island).toHaveAttribute("data-island-state", "mounted");
  }
  await expect(page.locator(".cal .flatpickr-day:not([aria-hidden=true])").first()).toBeVisible();
}

/** The shown days of the calendar. */
async function readDays(page: Page): Promise<ReadDay[]> {
  return page.locator(".cal .flatpickr-day:not([aria-hidden=true])").evaluateAll((els) =>
    els.map((el) => {
      const d = (el as HTMLElement & { dateObj: Date }).dateObj;
      const iso = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
      return {
        iso,
        name: el.getAttribute("aria-label") ?? "",
        role: el.getAttribute("role") ?? "",
        pressed: el.getAttribute("aria-pressed") ?? "",
        disabled: el.getAttribute("aria-disabled") === "true",
        tab: (el as HTMLElement).tabIndex,
      };
    }),
  );
}

/** Every shown day is a button named as a person says it, one in the Tab order. */
function checkNames(days: ReadDay[]): void {
  expect(days.length).toBeGreaterThan(27);
  for (const d of days) {
    expect(d.role, d.iso).toBe("button");
    expect(d.name.startsWith(spoken(d.iso)), `${d.iso}: "${d.name}"`).toBe(true);
    expect(["true", "false"]).toContain(d.pressed);
  }
  expect(days.filter((d) => d.tab === 0)).toHaveLength(1);
}

/** The focused element's day, or "" when the focus is not on a day. */
async function focusedDay(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as (HTMLElement & { dateObj?: Date }) | null;
    const d = el?.classList.contains("flatpickr-day") ? el.dateObj : undefined;
    if (!d) return "";
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  });
}

/** Tabs from the page's top until done says the focus is there. */
async function tabUntil(page: Page, what: string, done: () => Promise<boolean>, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await done()) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`e2e: Tab never reached ${what}`);
}

/** Tab into the calendar, from the top of the page. */
async function tabIntoCalendar(page: Page): Promise<string> {
  await page.locator("body").focus();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await tabUntil(page, "a day", async () => (await focusedDay(page)) !== "");
  const day = await focusedDay(page);
  // the day in the Tab order is the focused one, and is named
  await expect(page.locator(".cal .flatpickr-day:focus")).toHaveAttribute("aria-label", new RegExp(`^${spoken(day)}`));
  return day;
}

/** Moves the focus to day with the arrows (and Page Down for a month). */
async function arrowTo(page: Page, day: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    const at = await focusedDay(page);
    if (!at) throw new Error("e2e: the focus left the calendar");
    if (at === day) return;
    const diff = Math.round((Date.parse(day) - Date.parse(at)) / 86_400_000);
    let key = diff > 0 ? "ArrowRight" : "ArrowLeft";
    if (Math.abs(diff) >= 7) key = diff > 0 ? "ArrowDown" : "ArrowUp";
    if (diff > 35) key = "PageDown";
    await page.keyboard.press(key);
  }
  throw new Error(`e2e: the arrows never reached ${day}`);
}

/** Tabs on until the focused element matches. */
async function tabTo(page: Page, target: Locator, what: string): Promise<void> {
  await tabUntil(page, what, () => target.evaluate((el) => el === document.activeElement).catch(() => false));
}

async function axe(page: Page, what: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  expect(result.violations, `${what}: axe`).toEqual([]);
}

async function shots(page: Page, info: { outputPath(name: string): string }, name: string): Promise<void> {
  await page.screenshot({ path: info.outputPath(`${name}-360.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.locator(".cal .flatpickr-month")).toHaveCount(2);
  await page.screenshot({ path: info.outputPath(`${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(page.locator(".cal .flatpickr-month")).toHaveCount(1);
}

test.describe("every move with the keyboard alone, at 360 px", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("a lesson: a day by the arrows, a lesson named with its time and sport, 'Готово'", async ({ page }, info) => {
    test.setTimeout(120_000);
    await signUpNew(page, "Клава", "Клавишева");
    const url = `${await orderOf(page, "glk")}/transfer`;
    await open(page, url);
    const p = await props(page);
    const days = await readDays(page);
    checkNames(days);
    // the chosen day (the lesson's own, when in the window) holds the Tab stop, pressed and marked
    const first = await tabIntoCalendar(page);
    expect(first).toBe(p.value);
    expect(days.find((d) => d.iso === p.value)?.pressed).toBe("true");
    if (p.booked && days.some((d) => d.iso === p.booked)) {
      expect(days.find((d) => d.iso === p.booked)?.name).toBe(`${spoken(p.booked)}, сейчас в заказе`);
    }
    await axe(page, "lesson move");
    await shots(page, info, "keyboard-lesson");
    await tabIntoCalendar(page);

    const pick = page.locator("[data-island-root]").getByRole("button", { name: /^Выбрать \d\d:\d\d · / });
    let day = first;
    for (let off = 1; off <= 20 && (await pick.count()) === 0; off++) {
      day = addDays(day, 1);
      await arrowTo(page, day);
      await page.keyboard.press("Enter");
      await expect(page.locator("[data-island-root] fieldset.choices legend")).toContainText(dmy(day));
      await expect(page.locator(".cal .flatpickr-day:focus")).toHaveAttribute("aria-pressed", "true");
    }
    expect(await pick.count()).toBeGreaterThan(0);
    await tabTo(page, pick.first(), "a lesson's 'Выбрать'");
    await page.keyboard.press("Enter");
    await expect(pick.first()).toHaveAttribute("aria-pressed", "true");
    await tabTo(page, page.getByRole("button", { name: "Готово" }), "'Готово'");
    await page.keyboard.press("Enter");
    await expect(page.locator(".notice-ok")).toHaveText("Перенос выполнен успешно");
  });

  test("water-park tickets: days of the other kind disabled, a session by keyboard", async ({ page }, info) => {
    test.setTimeout(120_000);
    await signUpNew(page, "Клава", "Клавишева");
    await open(page, `${await orderOf(page, "aqua")}/transfer`);
    const days = await readDays(page);
    checkNames(days);
    // weekend tickets move to weekends only, weekday ones to weekdays: the others are disabled, not hidden
    const weekend = (iso: string) => [0, 6].includes(new Date(`${iso}T00:00:00Z`).getUTCDay());
    const p = await props(page);
    const original = p.booked as string;
    for (const d of days.filter((d) => d.iso >= p.min && d.iso <= p.max)) {
      expect(d.disabled, `${d.iso} disabled`).toBe(weekend(d.iso) !== weekend(original));
    }
    await shots(page, info, "keyboard-aqua");

    await tabIntoCalendar(page);
    const session = page.locator('[data-island-root] input[name="sessionId"]:not([disabled])');
    let day = await focusedDay(page);
    for (let off = 0; off <= 30 && (await session.count()) === 0; off++) {
      do day = addDays(day, 1);
      while (weekend(day) !== weekend(original));
      await arrowTo(page, day);
      await page.keyboard.press(" ");
      await expect(page.locator("[data-island-root] fieldset.choices legend")).toContainText(dmy(day));
    }
    expect(await session.count()).toBeGreaterThan(0);
    // Tab enters the radio group on its first button that can be chosen; Space checks it
    await tabTo(page, session.first(), "the sessions");
    await page.keyboard.press(" ");
    await expect(session.first()).toBeChecked();
    await tabTo(page, page.getByRole("button", { name: "Перенести билеты" }), "'Перенести билеты'");
    await page.keyboard.press("Enter");
    await expect(page.locator(".notice-ok")).toHaveText("Вы успешно перенесли билеты на другую дату");
  });

  test("a hotel stay: nights named with their price or 'нет мест', the stay marked, a range by keyboard", async ({ page }, info) => {
    test.setTimeout(120_000);
    await signUpNew(page, "Клава", "Клавишева");
    await open(page, `${await orderOf(page, "hotel")}/transfer`);
    const p = await props(page);
    const byDay = new Map((p.days ?? []).map((d) => [d.date, d]));
    const free = (iso: string) => {
      const d = byDay.get(iso);
      return !!d && d.vacant >= (p.rooms ?? 1) && d.family >= (p.family ?? 0);
    };
    const [stayIn, stayOut] = p.stay as [string, string];
    const days = await readDays(page);
    checkNames(days);
    // opened on the stay's month, with its days marked
    expect(days.some((d) => d.iso === stayIn)).toBe(true);
    for (const d of days) {
      const listed = byDay.get(d.iso);
      const booked = d.iso >= stayIn && d.iso <= stayOut;
      const note = listed ? (free(d.iso) ? listed.label : "нет мест") : "";
      expect(d.name, d.iso).toBe([spoken(d.iso), note, booked ? "сейчас в заказе" : ""].filter(Boolean).join(", "));
      if (d.iso >= p.min && d.iso <= p.max && listed) expect(d.disabled, `${d.iso} disabled`).toBe(!free(d.iso));
    }
    await axe(page, "hotel move");
    await shots(page, info, "keyboard-hotel");

    // A range of the same nights and price, by the arrows and Enter.
    const nights = Math.round((Date.parse(stayOut) - Date.parse(stayIn)) / 86_400_000);
    let range: [string, string] | null = null;
    for (const d of p.days ?? []) {
      const span = Array.from({ length: nights }, (_, i) => addDays(d.date, i));
      const sum = span.reduce((s, x) => s + (byDay.get(x)?.price ?? 0), 0);
      if (d.date !== stayIn && span.every(free) && Math.abs(sum - (p.amount ?? 0)) < 0.01) {
        range = [d.date, addDays(d.date, nights)];
        break;
      }
    }
    expect(range, "a free range of the stay's price").not.toBeNull();
    const [from, to] = range as [string, string];
    await tabIntoCalendar(page);
    await arrowTo(page, from);
    await page.keyboard.press("Enter");
    await expect(page.locator("[data-island-root] .cal-sum")).toContainText(`Заезд: ${dmy(from)}, Выезд: —`);
    await arrowTo(page, to);
    await page.keyboard.press("Enter");
    await expect(page.locator("[data-island-root] .cal-sum")).toContainText(`Заезд: ${dmy(from)}, Выезд: ${dmy(to)}`);
    for (const d of await readDays(page)) expect(d.pressed, d.iso).toBe(String(d.iso >= from && d.iso <= to));
    // the range chosen, the focus ring on its check-out
    await page.locator("[data-island-root]").screenshot({ path: info.outputPath("keyboard-hotel-range-360.png") });
    await tabTo(page, page.getByRole("button", { name: "Готово" }), "'Готово'");
    await page.keyboard.press("Enter");
    await expect(page.locator(".notice-ok")).toHaveText("Перенос бронирования выполнен успешно.");
  });

  for (const kind of ["pavilion", "celRoom"] as const) {
    test(`a ${kind} rent: the booked day shown and marked, a day and hours by keyboard`, async ({ page }, info) => {
      test.setTimeout(120_000);
      await signUpNew(page, "Клава", "Клавишева");
      const order = await orderOf(page, kind);
      await page.goto(order);
      const url = (await page.getByRole("link", { name: "Перенести аренду" }).getAttribute("href")) as string;
      await open(page, url);
      const p = await props(page);
      const days = await readDays(page);
      checkNames(days);
      // the booked day is in the month shown, chosen and marked
      const booked = days.find((d) => d.iso === p.booked);
      expect(booked?.name).toBe(`${spoken(p.booked as string)}, сейчас в заказе`);
      expect(booked?.pressed).toBe("true");
      await expect(page.locator("[data-island-root] .cal-legend")).toContainText("сейчас в заказе");
      await shots(page, info, `keyboard-${kind}`);

      // A day with a run of free hours as long as the rent's.
      type Hour = { from: string; to: string; free: boolean };
      let plan: { date: string; label: string; start: Hour; end: Hour } | null = null;
      for (let off = 1; off <= 25 && !plan; off++) {
        const date = addDays(p.min, off);
        if (date === p.value) continue;
        const res = await page.request.get(`${url}?date=${date}`, { headers: { Accept: "application/json" } });
        const day = (await res.json()) as { label: string; need: string; hours: Hour[] };
        const need = Number(day.need);
        for (let i = 0; i + need <= day.hours.length && !plan; i++) {
          if (day.hours.slice(i, i + need).every((h) => h.free)) plan = { date, label: day.label, start: day.hours[i], end: day.hours[i + need - 1] };
        }
      }
      expect(plan).not.toBeNull();
      const { date, label, start, end } = plan as NonNullable<typeof plan>;
      await tabIntoCalendar(page);
      await arrowTo(page, date);
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { name: `Часы на ${label}` })).toBeVisible();
      const slot = (h: Hour) => page.locator(".slot-picker .slot").filter({ hasText: new RegExp(`^${h.from}`) });
      await tabTo(page, slot(start), `the hour ${start.from}`);
      await page.keyboard.press("Enter");
      await tabTo(page, slot(end), `the hour ${end.from}`);
      await page.keyboard.press("Enter");
      await expect(page.locator(".slot-picker [role=status]")).toContainText(`${start.from}–${end.to}`);
      await tabTo(page, page.getByRole("button", { name: "Перенести аренду" }), "'Перенести аренду'");
      await page.keyboard.press("Enter");
      await page.waitForURL(new RegExp(`/orders/${kind}/\\d+$`));
      await expect(page.locator(".notice-ok")).toHaveText("Перенос выполнен успешно");
      await expect(page.locator("main article")).toContainText(`${start.from}–${end.to}`);
    });
  }
});

test.describe("a choice made before the islands come", () => {
  // The offline worker would serve the held scripts from its cache.
  test.use({ viewport: { width: 360, height: 740 }, serviceWorkers: "block" });

  test("a water-park session chosen in the server's form is still chosen after the island mounts", async ({ page }) => {
    test.setTimeout(120_000);
    await signUpNew(page, "Клава", "Клавишева");
    const url = `${await orderOf(page, "aqua")}/transfer`;
    // The islands' scripts are held back, as on a slow phone.
    const held: Route[] = [];
    let holding = true;
    await page.route(/\/static\/dist\/.*\.js$/, (route) => (holding ? held.push(route) : route.continue()));
    // (the page's load waits for its module script, which is held)
    await page.goto(url, { waitUntil: "commit" });
    const radios = page.locator('[data-island-fallback] input[name="sessionId"]:not([disabled])');
    await expect(page.locator("#transfer-day input[name=date]")).toBeVisible();
    const p = await props(page);
    const weekend = (iso: string) => [0, 6].includes(new Date(`${iso}T00:00:00Z`).getUTCDay());
    for (let off = 1; off <= 30 && (await radios.count()) === 0; off++) {
      const day = addDays(p.min, off);
      if (weekend(day) !== weekend(p.booked as string)) continue; // another kind of day: not offered
      await page.locator("#transfer-day input[name=date]").fill(day);
      await page.getByRole("button", { name: "Показать сеансы" }).click();
      await expect(page.locator("[data-island-fallback] fieldset.choices legend")).toContainText(dmy(day));
    }
    expect(await radios.count()).toBeGreaterThan(0);
    const chosen = radios.last();
    const value = (await chosen.getAttribute("value")) as string;
    await chosen.check();
    await expect(page.locator("[data-island=calendar]")).not.toHaveAttribute("data-island-state", "mounted");

    holding = false;
    await Promise.all(held.splice(0).map((r) => r.continue()));
    await expect(page.locator("[data-island=calendar]")).toHaveAttribute("data-island-state", "mounted");
    await expect(page.locator("[data-island-fallback]")).toBeHidden();
    const island = page.locator(`[data-island-root] input[name="sessionId"][value="${value}"]`);
    await expect(island).toBeChecked();
    const sent = await page.locator("form:has([data-island=calendar])").evaluate((f) => new FormData(f as HTMLFormElement).getAll("sessionId"));
    expect(sent).toEqual([value]);
    await page.getByRole("button", { name: "Перенести билеты" }).click();
    await expect(page.locator(".notice-ok")).toHaveText("Вы успешно перенесли билеты на другую дату");
  });
});
