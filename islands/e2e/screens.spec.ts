// Every screen a customer may have: paper (print media), high contrast
// (forced colors, light and dark) and 400 % zoom (a 1280 × 1024 window is
// 320 × 256 CSS px; 200 % is 640 × 512), JavaScript on and off. Each is kept
// as a screenshot for a person to look at (islands/test-results/…).
import type { Browser, BrowserContext, BrowserContextOptions, Page, TestInfo } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { clickDay, lastCode, newPhone, signUpWithDialog, tapDay } from "./helpers";

// A customer with a long name, and their pages of every kind.
const FIRST = "Александрина";
const LAST = "Константинопольская-Преображенская";
type Pages = { orders: Record<string, string>; moves: Record<string, string>; refund: string; tickets: string };
let pages: Pages;
let cookies: Awaited<ReturnType<BrowserContext["cookies"]>> = [];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const ctx = await browser.newContext({ baseURL: process.env.LK_E2E_URL });
  const page = await ctx.newPage();
  const { digits } = newPhone();
  const r1 = await page.request.post("/signup", { form: { phone: digits, firstName: FIRST, lastName: LAST }, maxRedirects: 0 });
  expect(r1.status()).toBe(303);
  const r2 = await page.request.post("/login/code", { form: { code: (await lastCode(digits)).code }, maxRedirects: 0 });
  expect(r2.status()).toBe(303);
  await page.goto("/orders");
  const hrefs = await page
    .locator('section[aria-labelledby="active-h"] a[href^="/orders/"]')
    .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? "").filter((h) => /^\/orders\/\w+\/\d+$/.test(h)));
  pages = { orders: {}, moves: {}, refund: "", tickets: "" };
  for (const href of hrefs) {
    const kind = href.split("/")[2];
    await page.goto(href);
    if (!pages.tickets && (await page.locator(".tickets figure.gate").count()) > 0) pages.tickets = href;
    pages.orders[kind] ??= href;
    const move = page.locator(`main a[href="${href}/transfer"]`);
    if (!pages.moves[kind] && (await move.count()) > 0) pages.moves[kind] = `${href}/transfer`;
    const refund = page.locator(`main a[href="${href}/refund"]`);
    if (!pages.refund && (await refund.count()) > 0) pages.refund = `${href}/refund`;
  }
  for (const kind of ["glk", "aqua", "hotel", "pavilion", "celRoom"]) expect(pages.moves[kind], `a movable ${kind} order`).toBeTruthy();
  expect(pages.refund, "a refund form").toBeTruthy();
  expect(pages.tickets, "an order with gate codes").toBeTruthy();
  cookies = await ctx.cookies();
  await ctx.close();
});

/** A signed-in page of its own context (JavaScript on or off, a screen). */
async function open(browser: Browser, options: BrowserContextOptions): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: process.env.LK_E2E_URL, ...options });
  await ctx.addCookies(cookies);
  return ctx.newPage();
}

const shot = (page: Page, info: TestInfo, name: string) => page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: true });

test.describe("print", () => {
  test("an order prints as a document: no menu, no 'Выйти', no buttons, each ticket whole on its sheet", async ({ browser }, info) => {
    test.setTimeout(120_000);
    const page = await open(browser, { viewport: { width: 1280, height: 900 } });
    for (const path of [pages.tickets, pages.orders.hotel, pages.orders.glk]) {
      expect((await page.goto(path))?.status(), path).toBe(200);
      await page.emulateMedia({ media: "print" });
      await expect(page.locator("main h1")).toBeVisible();
      await expect(page.locator("main dl.kv")).toBeVisible();
      await expect(page.getByRole("button", { name: "Выйти" }), `${path}: 'Выйти' on paper`).toBeHidden();
      await expect(page.getByRole("navigation", { name: "Меню кабинета" })).toBeHidden();
      await expect(page.locator("header")).toBeHidden();
      await expect(page.getByText("← Все заказы")).toBeHidden();
      const controls = await page.locator("main :is(button, .btn, form)").evaluateAll((es) => es.filter((e) => (e as HTMLElement).checkVisibility()).length);
      expect(controls, `${path}: buttons and forms on paper`).toBe(0);
      // On A4, as a person prints it, to look at.
      const name = `order-${path.split("/")[2]}-print-a4`;
      writeFileSync(info.outputPath(`${name}.pdf`), await page.pdf({ format: "A4" }));
      execFileSync("pdftoppm", ["-png", "-r", "50", info.outputPath(`${name}.pdf`), info.outputPath(name)]);
      await page.emulateMedia({ media: "screen" });
      await expect(page.getByRole("button", { name: "Выйти" })).toBeVisible();
    }

    // The tickets on sheets small enough that some ticket meets a sheet's
    // end: each ticket's number, QR code and gate code print on one sheet.
    await page.goto(pages.tickets);
    await page.emulateMedia({ media: "print" });
    const tickets = await page.locator(".tickets li").evaluateAll((lis) =>
      lis.map((li) => ({
        number: (li.querySelector(".nw")?.textContent ?? "").trim(),
        code: (li.querySelector("figcaption")?.textContent ?? "").trim(),
        avoid: getComputedStyle(li).breakInside,
      })),
    );
    expect(tickets.filter((t) => t.code).length, "tickets with gate codes").toBeGreaterThan(1);
    const pdf = info.outputPath("order-tickets-print.pdf");
    writeFileSync(pdf, await page.pdf({ width: "105mm", height: "148mm", printBackground: false }));
    const sheets = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" }).split("\f").filter((s) => s.trim());
    expect(sheets.length, "sheets").toBeGreaterThan(1);
    const all = sheets.join("\n");
    expect(all).not.toContain("Выйти");
    expect(all).not.toContain("Мой кабинет");
    expect(all).toContain("Билеты");
    for (const t of tickets.filter((t) => t.code)) {
      expect(t.avoid, `${t.number}: break-inside`).toBe("avoid");
      const on = sheets.findIndex((s) => s.includes(t.number));
      expect(on, `${t.number} on a sheet`).toBeGreaterThanOrEqual(0);
      expect(sheets[on], `${t.number}: its gate code on the same sheet`).toContain(t.code);
    }
    // Each sheet as a picture to look at.
    execFileSync("pdftoppm", ["-png", "-r", "60", pdf, info.outputPath("order-tickets-print")]);
    await page.context().close();
  });
});

type Look = { color: string; background: string; border: string; decoration: string };
type CalendarLook = {
  canvas: string;
  ordinary: Look;
  chosen: Look;
  booked: string;
  bookedDay: Look;
  disabled: Look;
  key: string;
  arrows: string[];
};

/** The computed looks of the calendar's days (the island's when JavaScript
 *  is on, else the server's month) and of the month buttons. */
async function calendarLook(page: Page, island: boolean): Promise<CalendarLook> {
  return page.evaluate((island) => {
    const root = document.querySelector(island ? ".cal" : ".sm") as HTMLElement;
    const day = island ? ".flatpickr-day:not(.prevMonthDay):not(.nextMonthDay)" : ".d";
    const chosen = island ? ":is(.selected,.startRange,.endRange)" : ".selected";
    const off = island ? ":is(.flatpickr-disabled,.cal-off)" : ".off";
    const look = (sel: string): Look => {
      const e = root.querySelector(sel);
      if (!e) throw new Error(`no ${sel}`);
      const s = getComputedStyle(e);
      return { color: s.color, background: s.backgroundColor, border: s.borderTopColor, decoration: s.textDecorationLine };
    };
    const after = (sel: string) => getComputedStyle(root.querySelector(sel) as Element, "::after").backgroundColor;
    const arrows = [...document.querySelectorAll(island ? ".cal :is(.flatpickr-prev-month,.flatpickr-next-month)" : ".sm-nav")]
      .filter((a) => (a as HTMLElement).checkVisibility())
      .map((a) => {
        const path = a.querySelector("svg path");
        return path ? getComputedStyle(path).fill : getComputedStyle(a).color;
      });
    return {
      canvas: getComputedStyle(document.documentElement).backgroundColor,
      ordinary: look(`${day}:not(${chosen}):not(${off}):not(.today):not(.inRange):not(.cal-booked)`),
      chosen: look(`${day}${chosen}`),
      booked: after(`${day}.cal-booked:not(${chosen})`),
      bookedDay: look(`${day}.cal-booked:not(${chosen})`),
      disabled: look(`${day}${off}`),
      key: getComputedStyle(document.querySelector(".cal-key") as Element).backgroundColor,
      arrows,
    };
  }, island);
}

const transparent = (c: string) => c === "transparent" || /rgba\(.*,\s*0\)$/.test(c);

for (const colorScheme of ["light", "dark"] as const) {
  for (const js of [true, false]) {
    test(`forced colors, ${colorScheme}, JavaScript ${js ? "on" : "off"}: the calendar's days and arrows stay distinct`, async ({ browser }, info) => {
      test.setTimeout(120_000);
      const page = await open(browser, { viewport: { width: 360, height: 800 }, forcedColors: "active", colorScheme, javaScriptEnabled: js });
      for (const kind of ["glk", "hotel"]) {
        expect((await page.goto(pages.moves[kind]))?.status()).toBe(200);
        // A day other than the booked ones, so both the chosen and the
        // booking's days show.
        if (js) await expect(page.locator(".cal .flatpickr-calendar")).toHaveCount(1);
        const booked = await page.locator(js ? ".cal .cal-booked" : ".sm .cal-booked").count();
        expect(booked, `${kind}: the booking's days`).toBeGreaterThan(0);
        const days = js
          ? await page.locator(".cal .flatpickr-day:not(.flatpickr-disabled):not(.cal-booked):not(.prevMonthDay):not(.nextMonthDay)").evaluateAll((es) =>
              es.map((e) => (e as HTMLElement & { dateObj: Date }).dateObj.toLocaleDateString("sv")),
            )
          : await page.locator(".sm a.d:not(.cal-booked)").evaluateAll((es) =>
              es.map((e) => {
                const q = new URL((e as HTMLAnchorElement).href).searchParams;
                return q.get("date") ?? q.get("dateIn") ?? "";
              }),
            );
        const pick = days.filter((d) => d)[kind === "hotel" ? 1 : 2];
        if (js) {
          expect(await clickDay(page, pick)).toBe(true);
          if (kind === "hotel") expect(await clickDay(page, days[days.indexOf(pick) + 2])).toBe(true);
        } else expect(await tapDay(page, pick)).toBe(true);
        if (js) await expect(page.locator(".cal .flatpickr-day.selected").first()).toBeVisible();
        const l = await calendarLook(page, js);
        const what = `${kind} ${colorScheme} JS ${js ? "on" : "off"}: ${JSON.stringify(l)}`;
        expect(l.chosen.background, `${what}: the chosen day filled`).not.toBe(l.ordinary.background);
        expect(transparent(l.chosen.background), what).toBe(false);
        expect(l.chosen.color, `${what}: the chosen day's text`).not.toBe(l.ordinary.color);
        expect(transparent(l.booked) || l.booked === l.canvas, `${what}: the booking's bar drawn`).toBe(false);
        expect(transparent(l.key) || l.key === l.canvas, `${what}: the legend's key drawn`).toBe(false);
        expect(l.disabled.decoration, what).toContain("line-through");
        expect(l.disabled.color, `${what}: a day that cannot be chosen`).not.toBe(l.ordinary.color);
        expect(l.ordinary.border === l.canvas || transparent(l.ordinary.border), `${what}: no ring round an ordinary day`).toBe(true);
        expect(l.arrows.length, `${what}: month buttons`).toBeGreaterThan(0);
        for (const a of l.arrows) expect(transparent(a) || a === l.canvas, `${what}: an arrow drawn`).toBe(false);
        await page.locator(js ? ".cal" : ".sm").screenshot({ path: info.outputPath(`forced-${colorScheme}-${js ? "js" : "nojs"}-${kind}-calendar.png`) });
        await shot(page, info, `forced-${colorScheme}-${js ? "js" : "nojs"}-${kind}-360`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(pages.moves.glk);
      if (js) await expect(page.locator(".cal .flatpickr-calendar")).toHaveCount(1);
      await shot(page, info, `forced-${colorScheme}-${js ? "js" : "nojs"}-glk-1280`);
      await page.context().close();
    });
  }
}

/** Where the text breaks a word across lines (a letter ends one line and the next begins the other). */
function wordsBroken(): string[] {
  const out: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.textContent ?? "";
    if (t.trim().length < 2 || !n.parentElement?.checkVisibility() || n.parentElement.closest("script,style,template")) continue;
    let top = NaN;
    for (let i = 0; i < t.length; i++) {
      range.setStart(n, i);
      range.setEnd(n, i + 1);
      const r = range.getClientRects()[0];
      if (!r) continue;
      if (r.top > top + 2 && /\p{L}/u.test(t[i - 1] ?? "") && /\p{L}/u.test(t[i])) out.push(`${t.slice(Math.max(0, i - 12), i)}|${t.slice(i, i + 12)}`);
      top = r.top;
    }
  }
  return out;
}

const zooms = [
  { name: "400 %", viewport: { width: 320, height: 256 } },
  { name: "200 %", viewport: { width: 640, height: 512 } },
];

for (const js of [true, false]) {
  test(`zoomed to 400 % and 200 %, JavaScript ${js ? "on" : "off"}: no page scrolls sideways, no name broken mid-word`, async ({ browser }, info) => {
    test.setTimeout(240_000);
    const paths: [string, string][] = [
      ["home", "/"],
      ["orders", "/orders"],
      ["profile", "/profile/edit"],
      ["refund", pages.refund],
      ...Object.entries(pages.orders).map(([k, p]) => [`order-${k}`, p] as [string, string]),
      ...Object.entries(pages.moves).map(([k, p]) => [`move-${k}`, p] as [string, string]),
    ];
    for (const zoom of zooms) {
      const page = await open(browser, { viewport: zoom.viewport, javaScriptEnabled: js });
      const at = async (name: string, path: string) => {
        expect((await page.goto(path))?.status(), path).toBe(200);
        if (js && name.startsWith("move-")) await expect(page.locator(".cal .flatpickr-calendar")).toHaveCount(1);
        const m = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, client: document.scrollingElement!.clientWidth }));
        expect(m.scroll, `${name} at ${zoom.name} (JS ${js ? "on" : "off"}): width`).toBeLessThanOrEqual(m.client);
        if (zoom.viewport.width === 320) {
          expect(await page.evaluate(wordsBroken), `${name} at ${zoom.name}: words broken across lines`).toEqual([]);
          await shot(page, info, `${name}-320x256-${js ? "js" : "nojs"}`);
        }
      };
      for (const [name, path] of paths) await at(name, path);
      // Signed out.
      await page.context().clearCookies();
      await at("login", "/login");
      await page.context().close();
    }
  });
}

test("the server's month and the island's have one box at every width, 320 px too", async ({ browser }) => {
  test.setTimeout(120_000);
  for (const width of [320, 360, 1280]) {
    const page = await open(browser, { viewport: { width, height: 800 } });
    for (const kind of ["glk", "pavilion"]) {
      // The server's month as the page arrives, the island's once drawn.
      await page.route(/\/static\/dist\/assets\/.*\.js$/, (r) => r.abort());
      await page.goto(pages.moves[kind]);
      const box = (sel: string) =>
        page.evaluate((sel) => {
          const e = document.querySelector(sel) as HTMLElement;
          const r = e.getBoundingClientRect();
          const cols = [...e.querySelectorAll(":is(.d, .flatpickr-day):not(.prevMonthDay):not(.nextMonthDay)")].slice(0, 7).map((d) => d.getBoundingClientRect().x);
          return { x: r.x, width: r.width, height: r.height, cols: cols.sort((a, b) => a - b) };
        }, sel);
      const server = await box(".sm");
      await page.unroute(/\/static\/dist\/assets\/.*\.js$/);
      await page.goto(pages.moves[kind]);
      await expect(page.locator(".cal .flatpickr-calendar")).toHaveCount(1);
      const island = await box(".cal .flatpickr-calendar");
      // within a pixel: the table's columns and flatpickr's spread the same
      // width by other roundings
      const apart = Math.max(...(["x", "width", "height"] as const).map((k) => Math.abs(island[k] - server[k])), ...island.cols.map((c, i) => Math.abs(c - server.cols[i])));
      expect(apart, `${kind} at ${width} px: ${JSON.stringify({ island, server })}`).toBeLessThanOrEqual(1);
      expect(server.x + server.width, `${kind} at ${width} px: inside the page`).toBeLessThanOrEqual(width - 16);
    }
    await page.context().close();
  }
});

test("the SMS code dialog opens at its top at 400 % zoom", async ({ page }, info) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 320, height: 256 });
  const phone = newPhone();
  const dialog = await signUpWithDialog(page, phone, "Анна", "Петрова");
  await expect(dialog).toBeVisible();
  for (const what of [dialog.getByRole("heading", { name: "Готово" }), dialog.getByRole("button", { name: "Закрыть" })]) {
    await expect(what).toBeInViewport({ ratio: 1 });
  }
  expect(await dialog.evaluate((d) => d.scrollTop)).toBe(0);
  await expect(page.getByLabel("Цифра 1 из 4")).toBeFocused();
  const m = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, client: document.scrollingElement!.clientWidth }));
  expect(m.scroll).toBeLessThanOrEqual(m.client);
  await page.screenshot({ path: info.outputPath("dialog-320x256.png") });
  // Typing brings the boxes into view, and the code signs in.
  await page.keyboard.type((await lastCode(phone.digits)).code);
  await expect(page.getByLabel("Цифра 4 из 4")).toBeInViewport();
  await dialog.getByRole("button", { name: "Подтвердить" }).click();
  await page.waitForURL((u) => u.pathname === "/");
});
