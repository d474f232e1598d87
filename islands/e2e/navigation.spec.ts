// Navigation on a slow phone: the signed-in pages name the
// pages a customer takes next (speculation rules), Back and Forward come
// from the back/forward cache, and sign-out leaves no account page behind
// Back. Playwright launches Chromium with the back/forward cache off, so
// these tests start a browser of their own without that switch, as a
// customer's Chromium runs.
//
// Chromium never renders a page ahead for Playwright, which attaches to
// pages directly (PrerenderingDisabledByDevTools): here a page is fetched
// ahead at most. The taps with pages rendered ahead, as on a customer's
// phone, are measured in taps.spec.ts; what is asserted here is the
// mechanism (the page tapped was the one fetched ahead, Back restored the
// page kept, sign-out left none behind) and the provider's calls.
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { mkdirSync, writeFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { signUpNew } from "./helpers";

async function launch(): Promise<Browser> {
  const opts = test.info().project.use.launchOptions ?? {};
  return chromium.launch({ ...opts, ignoreDefaultArgs: ["--disable-back-forward-cache"] });
}

async function phone(browser: Browser, headers?: Record<string, string>): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: process.env.LK_E2E_URL,
    locale: "ru-RU",
    timezoneId: "Europe/Moscow",
    viewport: { width: 360, height: 780 },
    extraHTTPHeaders: headers,
  });
  const page = await context.newPage();
  return { context, page };
}

/** The slow phone: 400 kbps both ways, 400 ms round trip, the CPU four
 *  times slower. */
async function slow(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 400,
    downloadThroughput: 400_000 / 8,
    uploadThroughput: 400_000 / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
}

type Nav = { deliveryType: string; activationStart: number; fcp: number | null; url: string; responseStart: number; responseEnd: number; domInteractive: number };

/** How the page now shown arrived: fetched ahead ("navigational-prefetch"),
 *  rendered ahead (activationStart > 0), and its first paint counted from
 *  the tap (from the activation, for a page rendered ahead). */
function navigation(page: Page): Promise<Nav> {
  return page.evaluate(
    () =>
      new Promise<Nav>((done) => {
        const read = () => {
          const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming & { deliveryType?: string; activationStart?: number };
          const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
          const start = n.activationStart ?? 0;
          const r = (v: number) => Math.round(Math.max(v - start, 0));
          return {
            deliveryType: n.deliveryType ?? "",
            activationStart: start,
            fcp: paint === null ? null : r(paint),
            url: location.pathname,
            responseStart: r(n.responseStart),
            responseEnd: r(n.responseEnd),
            domInteractive: r(n.domInteractive),
          };
        };
        if (performance.getEntriesByName("first-contentful-paint").length > 0) return done(read());
        new PerformanceObserver((list, o) => {
          if (list.getEntriesByName("first-contentful-paint").length === 0) return;
          o.disconnect();
          done(read());
        }).observe({ type: "paint" });
      }),
  );
}

/** A mark in the page's JavaScript state and whether the page was last
 *  shown from the back/forward cache, to tell a restored page from a new one. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { kept: boolean; restored: boolean };
    w.kept = true;
    w.restored = false;
    addEventListener("pageshow", (e) => (w.restored = (e as PageTransitionEvent).persisted));
  });
}

function restored(page: Page): Promise<{ kept: boolean; restored: boolean; reasons: unknown }> {
  return page.evaluate(() => {
    const w = window as unknown as { kept?: boolean; restored?: boolean };
    const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming & { notRestoredReasons?: unknown };
    return { kept: w.kept === true, restored: w.restored === true, reasons: n.notRestoredReasons ?? null };
  });
}

const calendarUsable = () => {
  const island = document.querySelector('[data-island="calendar"]');
  return island?.getAttribute("data-island-state") === "mounted" && !!document.querySelector(".cal .flatpickr-calendar") ? performance.now() : 0;
};

/** The first order of the active list whose page offers a move (the new
 *  customer's lesson). */
const ORDER = 'section[aria-labelledby="active-h"] .oc[data-kind="glk"] h3 a[data-next]';
const MOVE = 'a[data-action="transfer"][data-next]';

/** The list, 3 s after it loaded; a finger rests on an order for 300 ms,
 *  then taps it. */
async function tapOrder(page: Page): Promise<Nav & { wallToFirstPaint: number }> {
  await page.goto("/orders", { waitUntil: "load" });
  await page.waitForTimeout(3000);
  const order = page.locator(ORDER).first();
  const orderPath = (await order.getAttribute("href"))!;
  await order.hover();
  await page.waitForTimeout(300);
  const t0 = Date.now();
  await order.click();
  await page.waitForURL(orderPath, { waitUntil: "commit" });
  const nav = await navigation(page);
  expect(nav.url).toBe(orderPath);
  return { ...nav, wallToFirstPaint: Date.now() - t0 };
}

/** On the order, 3 s after it loaded, a tap on its move, until its
 *  calendar can be used. */
async function tapMove(page: Page, before: () => Promise<void> = async () => undefined) {
  await page.waitForLoadState("load");
  await before();
  await page.waitForTimeout(3000);
  const prefetched = await page.evaluate(() => Array.from(document.querySelectorAll('head > link[rel="prefetch"]'), (l) => (l as HTMLLinkElement).href));
  const move = page.locator(MOVE);
  const movePath = (await move.getAttribute("href"))!;
  const t0 = Date.now();
  await move.click();
  await page.waitForURL(movePath, { waitUntil: "commit" });
  const usableAt = await (await page.waitForFunction(calendarUsable, null, { polling: "raf", timeout: 60_000 })).jsonValue();
  const nav = await navigation(page);
  const files = await page.evaluate(() =>
    (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((e) => e.name.includes("/static/dist/"))
      .map((e) => `${e.name.split("/").pop()} ${e.transferSize === 0 ? "cache" : "network"}`),
  );
  return { ...nav, movePath, prefetched, usableCalendar: Math.round(Math.max(usableAt - nav.activationStart, 0)), wallToUsable: Date.now() - t0, files };
}

test("three taps on a slow phone: an order, its move, Back; and sign-out", async () => {
  test.setTimeout(180_000);
  const browser = await launch();
  try {
    const { context, page } = await phone(browser);
    await signUpNew(page, "Анна", "Тестова");
    await slow(context, page);
    const figures: Record<string, unknown> = { network: "400 kbps, 400 ms RTT", cpu: "x4", width: 360 };

    const toOrder = await tapOrder(page);
    const orderPath = toOrder.url;
    figures.order = toOrder;
    expect(toOrder.deliveryType === "navigational-prefetch" || toOrder.activationStart > 0, `the order was fetched ahead: ${JSON.stringify(toOrder)}`).toBe(true);

    // 2. Its move.
    const toMove = await tapMove(page, () => markPage(page));
    const movePath = toMove.movePath;
    figures.move = toMove;
    expect(toMove.prefetched.some((h) => /\/calendar-[^/]+\.js$/.test(h)), `the move's files asked for while the order was read: ${toMove.prefetched}`).toBe(true);
    expect(toMove.deliveryType === "navigational-prefetch" || toMove.activationStart > 0, `the move was fetched ahead: ${JSON.stringify(toMove)}`).toBe(true);
    await markPage(page);

    // 3. Back: the order as it was left, from the back/forward cache.
    const t0 = Date.now();
    await page.goBack({ waitUntil: "commit" });
    await expect(page).toHaveURL(orderPath);
    const back = await restored(page);
    figures.back = { ...back, wall: Date.now() - t0 };
    expect(back, `Back restored the order page (notRestoredReasons: ${JSON.stringify(back.reasons)})`).toMatchObject({ kept: true, restored: true });

    // Forward: the move page with its calendar still mounted.
    await page.goForward({ waitUntil: "commit" });
    await expect(page).toHaveURL(movePath);
    const forward = await restored(page);
    expect(forward, `Forward restored the move page (notRestoredReasons: ${JSON.stringify(forward.reasons)})`).toMatchObject({ kept: true, restored: true });
    await expect(page.locator('[data-island="calendar"]')).toHaveAttribute("data-island-state", "mounted");
    await expect(page.locator(".cal .flatpickr-calendar")).toHaveCount(1);
    // A day of the month shown (the days of the months around it are hidden).
    await expect(page.locator(".cal .flatpickr-day:not(.flatpickr-disabled):not(.prevMonthDay):not(.nextMonthDay)").first()).toBeVisible();

    // Sign-out, then Back: no account page, kept or fetched.
    await page.getByRole("button", { name: "Выйти" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goBack({ waitUntil: "load" });
    await expect(page.getByRole("navigation", { name: "Меню кабинета" })).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
    figures.afterSignOutBack = page.url();

    mkdirSync("test-results", { recursive: true });
    writeFileSync("test-results/navigation.json", JSON.stringify(figures, null, 2));
    console.log("navigation on a slow phone:", JSON.stringify(figures, null, 2));
  } finally {
    await browser.close();
  }
});

/** The provider's calls so far, all paths together. */
async function providerCalls(): Promise<number> {
  const res = await fetch(`${process.env.LK_E2E_SANDBOX}/sandbox/calls`);
  const calls = (await res.json()) as Record<string, number>;
  return Object.values(calls).reduce((a, b) => a + b, 0);
}

// The same visit with the pages fetched ahead and without (Save-Data: the
// server then names nothing ahead): the list, a finger resting on an order
// not opened, an order opened, its move, Back.
test("provider calls per visit, with the pages fetched ahead and without", async () => {
  test.setTimeout(120_000);
  const browser = await launch();
  const visit = async (headers?: Record<string, string>) => {
    const { context, page } = await phone(browser, headers);
    await signUpNew(page, "Анна", "Тестова");
    await page.waitForLoadState("load");
    const before = await providerCalls();
    await page.goto("/orders", { waitUntil: "load" });
    await page.waitForTimeout(1000);
    const cards = page.locator('section[aria-labelledby="active-h"] .oc h3 a[data-next]');
    await cards.last().hover();
    await page.waitForTimeout(1000);
    await page.locator(ORDER).first().hover();
    await page.waitForTimeout(1000);
    await page.locator(ORDER).first().click();
    await page.waitForLoadState("load");
    await page.waitForTimeout(2000);
    await page.locator(MOVE).click();
    await page.waitForFunction(calendarUsable, null, { polling: 200, timeout: 30_000 });
    await page.goBack({ waitUntil: "commit" });
    await page.waitForTimeout(2000);
    const n = (await providerCalls()) - before;
    await context.close();
    return n;
  };
  try {
    const without = await visit({ "Save-Data": "on" });
    const withAhead = await visit();
    console.log(`provider calls per visit: ${without} without speculation, ${withAhead} with`);
    mkdirSync("test-results", { recursive: true });
    writeFileSync("test-results/navigation-calls.json", JSON.stringify({ without, with: withAhead }));
    expect(withAhead, `provider calls per visit with speculation (${withAhead}) within a quarter of ${without}`).toBeLessThanOrEqual(without * 1.25);
  } finally {
    await browser.close();
  }
});
