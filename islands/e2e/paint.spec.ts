// The server's HTML paints first: on every page with an island, nothing of
// the island (its script, React, their stylesheets) is asked for before the
// browser's first contentful paint, only the mount loop itself; the code
// dialog of the sign-in pages does not even run until its form is sent; and the
// island takes the place kept for it, so nothing on the page moves when it
// mounts (no layout shift) at a phone's width and a desktop's.
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signUpNew } from "./helpers";

const WIDTHS = [412, 1280];

type Shift = { value: number; at: number; moved: string[] };
type Timing = { fcp: number | null; entry: string; early: string[]; later: string[]; shifts: Shift[] };

/** Opens path, waits until every island has mounted (and a calendar has
 *  drawn its days), and reads what the browser recorded. */
async function timing(page: Page, path: string): Promise<Timing> {
  await page.addInitScript(() => {
    type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
    type LayoutShift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Source[] };
    const w = window as unknown as { shifts: Shift[] };
    const box = (r: DOMRectReadOnly) => `${r.x},${r.y} ${r.width}x${r.height}`;
    // What moved, and from where to where, so that a failure says which
    // element to look at.
    const what = (s: Source) => {
      const el = s.node instanceof Element ? s.node : s.node?.parentElement;
      const name = el ? `${el.tagName.toLowerCase()}${el.className ? "." + String(el.className).replace(/ +/g, ".") : ""}` : "?";
      return `${name} ${box(s.previousRect)} → ${box(s.currentRect)}`;
    };
    w.shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as LayoutShift[]) {
        if (!e.hadRecentInput) w.shifts.push({ value: e.value, at: Math.round(e.startTime), moved: e.sources.map(what) });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(200);
  // An island mounted when its form is sent (the code dialog) waits, with
  // nothing of it on the page; every other island mounts.
  const islands = page.locator("[data-island]:not([data-mount-on-submit])");
  for (let i = 0; i < (await islands.count()); i++) {
    await expect(islands.nth(i), `${path}: island ${i}`).toHaveAttribute("data-island-state", "mounted");
  }
  const waiting = page.locator("[data-island][data-mount-on-submit]");
  for (let i = 0; i < (await waiting.count()); i++) {
    await expect(waiting.nth(i), `${path}: island ${i} waits for its form`).toHaveAttribute("data-island-state", "waiting");
    await expect(waiting.nth(i).locator("[data-island-root]")).toHaveCount(0);
  }
  if ((await page.locator("[data-island=calendar]").count()) > 0) {
    await expect(page.locator(".cal .flatpickr-calendar")).toHaveCount(1);
  }
  // Two frames, so that a shift the last drawing caused is recorded.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.evaluate(() => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
    const entry = document.querySelector<HTMLScriptElement>("script[type=module][src]")?.src ?? "";
    const files = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
      (e) => e.name.includes("/static/dist/") && e.name !== entry,
    );
    const name = (e: PerformanceResourceTiming) => `${e.name.split("/").pop()} at ${e.startTime.toFixed(0)} ms`;
    return {
      fcp,
      entry,
      early: files.filter((e) => fcp === null || e.startTime <= fcp).map(name),
      later: files.filter((e) => fcp !== null && e.startTime > fcp).map(name),
      shifts: (window as unknown as { shifts: Shift[] }).shifts,
    };
  });
}

async function check(page: Page, path: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 823 : 720 });
    const t = await timing(page, path);
    const at = `${path} at ${width} px (first paint at ${t.fcp?.toFixed(0)} ms)`;
    expect(t.fcp, `${at}: first contentful paint`).not.toBeNull();
    expect(t.entry, `${at}: the mount loop`).toContain("/static/dist/assets/main-");
    expect(t.early, `${at}: island files asked for before the first paint`).toEqual([]);
    expect(t.later.length, `${at}: island files after the first paint`).toBeGreaterThan(0);
    // Nothing moves: the shifts add up to a cumulative layout shift that
    // rounds to 0.00, as Lighthouse shows CLS (a starved CPU may draw a
    // frame between the island's commit and the fallback's hiding).
    const cls = t.shifts.reduce((a, b) => a + b.value, 0);
    expect(cls, `${at}: layout shifts ${JSON.stringify(t.shifts)}`).toBeLessThan(0.005);
  }
}

test.describe("islands start after the first paint and move nothing", () => {
  for (const path of ["/login", "/signup"]) {
    test(path, async ({ page }) => {
      await check(page, path);
    });
  }

  // A new customer (with sample orders of every kind) for the move pages,
  // so no other test's orders or phone limits are touched.
  const moves: Record<string, string> = {};
  let cookies: Awaited<ReturnType<BrowserContext["cookies"]>> = [];
  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signUpNew(page, "Вера", "Тестова");
    const orders = await page
      .locator('section[aria-labelledby="active-h"] a[href^="/orders/"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? "").filter((h) => /^\/orders\/\w+\/\d+$/.test(h)));
    for (const href of orders) {
      const kind = href.split("/")[2];
      if (moves[kind]) continue;
      await page.goto(href);
      const link = page.locator(`main a[href="${href}/transfer"]`);
      if ((await link.count()) > 0) moves[kind] = `${href}/transfer`;
    }
    cookies = await page.context().cookies();
    await page.close();
  });

  // For each font face or size new to a page the browser asks the system's
  // font service, the page's thread waiting for the answer: the islands' text
  // keeps to the faces and sizes the server's page already shows, so the
  // layout that first shows them waits for none.
  test("the islands bring no font face or size the page did not have", async ({ browser }) => {
    const faces = (within: string) => {
      const seen = new Set<string>();
      const add = (el: Element) => {
        const s = getComputedStyle(el);
        if (s.display !== "none" && s.visibility !== "hidden") seen.add(`${s.fontFamily} ${s.fontStyle} ${s.fontWeight} ${s.fontSize}`);
      };
      for (const root of document.querySelectorAll(within)) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (n.textContent?.trim() && n.parentElement && !n.parentElement.closest("script,style,template,option")) add(n.parentElement);
        }
        root.querySelectorAll("input:not([type=hidden]),select,button,textarea").forEach(add);
      }
      return [...seen].sort();
    };
    for (const kind of ["hotel", "pavilion"]) {
      expect(moves[kind], `a movable ${kind} order`).toBeTruthy();
      for (const width of WIDTHS) {
        const viewport = { width, height: width < 600 ? 823 : 720 };
        const plain = await browser.newContext({ viewport, javaScriptEnabled: false });
        await plain.addCookies(cookies);
        const before = await plain.newPage();
        await before.goto(moves[kind]);
        const page = await before.evaluate(faces, "body");
        await plain.close();
        const ctx = await browser.newContext({ viewport });
        await ctx.addCookies(cookies);
        const after = await ctx.newPage();
        await after.goto(moves[kind]);
        await expect(after.locator(".cal .flatpickr-calendar")).toHaveCount(1);
        const islands = await after.evaluate(faces, "[data-island-root], .cal");
        await ctx.close();
        expect(islands.length, `${kind} at ${width} px: the islands' text`).toBeGreaterThan(0);
        expect(islands.filter((f) => !page.includes(f)), `${kind} at ${width} px: faces new to the page (it has ${page.join("; ")})`).toEqual([]);
      }
    }
  });

  for (const kind of ["glk", "aqua", "hotel", "pavilion", "celRoom"]) {
    test(`the ${kind} move page`, async ({ page }) => {
      expect(moves[kind], `a movable ${kind} order`).toBeTruthy();
      await page.context().addCookies(cookies);
      await check(page, moves[kind]);
    });
  }
});
