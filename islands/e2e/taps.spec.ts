// The three taps of a customer on a slow phone (an order, its move, Back),
// measured as the customer's Chromium runs them: pages rendered ahead of a
// tap included, which Chromium never does under Playwright (phone/cdp.ts).
//
// The phone: 360 px, the CPU four times slower (the protocol's throttling,
// on every page, those rendered ahead too), a link of 400 kbps and 400 ms
// round trip (phone/slowlink.ts, in front of the server), a phone's
// Chromium heuristics for the rules' "eager" (a link in view, where a
// desktop Chromium waits for a pointer to rest on it), and a finger: taps
// are touches, never a mouse (a phone has no pointer that hovers). The
// same visit runs again with Save-Data (the server then names nothing
// ahead), for comparison. The timings are recorded in test-results/taps.json and
// docs/benchmarks.md, not judged here: a shared 2-core machine varies with
// whatever else runs. What is asserted is what makes them short, and Back
// and sign-out as a customer sees them.
import { chromium, expect, test } from "@playwright/test";
import { mkdirSync, writeFileSync } from "node:fs";
import { Chromium, type PageTarget } from "./phone/cdp";
import { slowLink, type SlowLink } from "./phone/slowlink";
import { lastCode, newPhone } from "./helpers";
import config from "../playwright.config";

const LINK = { rttMs: 400, bitsPerSecond: 400_000 };
const ORDER = 'section[aria-labelledby="active-h"] .oc[data-kind="glk"] h3 a[data-next]';
const MOVE = 'a[data-action="transfer"][data-next]';
// A phone's Chromium: two device pixels a pixel, scrollbars that take no
// room, and "eager" a link in view for a moment, not a pointer resting on
// it (the desktop's heuristic).
const PHONE = [
  "--force-device-scale-factor=2",
  "--hide-scrollbars",
  "--disable-features=PreloadingEagerHoverHeuristics",
  "--enable-features=PreloadingEagerViewportHeuristics,NavigationPredictor:random_anchor_sampling_period/1,NavigationPredictorNewViewportFeatures",
];

const debug = (...a: unknown[]) => process.env.TAPS_DEBUG && console.log(new Date().toISOString().slice(17, 23), ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let customers = 0;

/** A new customer's session cookies, signed up through the plain forms. */
async function signUp(address: string): Promise<{ name: string; value: string }[]> {
  const server = process.env.LK_E2E_URL!;
  const jar = new Map<string, string>();
  const post = async (path: string, form: Record<string, string>) => {
    const res = await fetch(server + path, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": address, Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
      body: new URLSearchParams(form),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    if (res.status !== 303) throw new Error(`taps: POST ${path} answered ${res.status}`);
  };
  const { digits } = newPhone();
  await post("/signup", { phone: digits, firstName: "Анна", lastName: "Тестова" });
  await post("/login/code", { code: (await lastCode(digits)).code });
  return [...jar].filter(([, v]) => v !== "").map(([name, value]) => ({ name, value }));
}

type Phone = { browser: Chromium; link: SlowLink; current: PageTarget; tab: () => PageTarget };

/** A fresh phone signed in as a new customer, behind the slow link. */
async function phone(saveData: boolean): Promise<Phone> {
  const address = `10.47.${Math.floor(++customers / 250)}.${(customers % 250) + 1}`;
  const link = await slowLink(process.env.LK_E2E_URL!, { ...LINK, headers: { "X-Forwarded-For": address, ...(saveData ? { "Save-Data": "on" } : {}) } });
  const cookies = await signUp(address);
  const args = (config.use?.launchOptions?.args ?? []).concat(PHONE);
  // The phone's CPU, on every page (those rendered ahead too).
  const browser = await Chromium.launch(config.use?.launchOptions?.executablePath ?? chromium.executablePath(), args, {
    attached: async ({ session }, c) => {
      await c.send("Emulation.setCPUThrottlingRate", { rate: 4 }, session);
      if (process.env.TAPS_DEBUG) await c.send("Preload.enable", {}, session);
    },
  });
  // The phone's screen: the window itself is 360 px wide, so a page
  // rendered ahead is laid out as it will be shown. (The protocol's device
  // emulation, set on a page rendered ahead, keeps it from ever being
  // shown; and a headless window is at least 500 px wide unless its
  // contents are sized so.)
  const { windowId } = await browser.send("Browser.getWindowForTarget", { targetId: browser.shown()!.info.targetId });
  await browser.send("Browser.setContentsSize", { windowId, width: 360, height: 780 });
  // TAPS_DEBUG=1: what Chromium fetched and rendered ahead, and why not.
  browser.on((m) => {
    if (m.method === "Preload.prefetchStatusUpdated" || m.method === "Preload.prerenderStatusUpdated") debug(m.method, JSON.stringify(m.params));
  });
  await browser.send("Storage.setCookies", {
    cookies: cookies.map((c) => ({ ...c, url: link.url, path: "/", secure: true, httpOnly: true, sameSite: "Lax" })),
  });
  const p: Phone = { browser, link, current: browser.shown()!, tab: () => p.current };
  // The customer has just signed in on this phone: the first page after the
  // code (home) has installed the offline worker, as for every customer.
  try {
    await browser.send("Page.navigate", { url: `${link.url}/` }, p.tab().session);
    const home = await shows(p, "/");
    await browser.evaluate(home.session, `navigator.serviceWorker.ready.then(() => true)`, 30_000);
  } catch (err) {
    await browser.close();
    await link.close();
    throw err;
  }
  return p;
}

/** Waits until the tab shows path (loaded, visible) and returns that page,
 *  the tab's page from now on: a page rendered ahead becomes the shown one
 *  on activation, and the page left stays a target while the back/forward
 *  cache keeps it. */
async function shows(p: Phone, path: string, timeoutMs = 60_000): Promise<PageTarget> {
  const deadline = Date.now() + timeoutMs;
  const test = `location.pathname === ${JSON.stringify(path)} && document.readyState !== "loading" && document.visibilityState === "visible" && !document.prerendering`;
  for (;;) {
    for (const [session, info] of p.browser.pages) {
      if (info.subtype === "prerender") continue;
      if (await p.browser.evaluate<boolean>(session, test, 500).catch(() => false)) {
        p.current = { session, info };
        return p.current;
      }
    }
    if (Date.now() > deadline) throw new Error(`taps: ${path} not shown in ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** The centre of selector's first element, scrolled into view, and where
 *  it leads (a link). */
async function centre(p: Phone, selector: string): Promise<{ x: number; y: number; href: string }> {
  return p.browser.evaluate(p.tab().session, `(() => {
    const a = document.querySelector(${JSON.stringify(selector)});
    a.scrollIntoView({ block: "center" });
    const r = a.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2, href: a.href ? new URL(a.href).pathname : "" };
  })()`);
}

/** A finger on the phone's screen at at, resting there restMs, then lifted
 *  (a tap: Chromium makes it a click); resolves with when it was lifted.
 *  A phone has no pointer that hovers: a finger coming down is the first
 *  its page hears of a tap (pointerdown). */
async function finger(p: Phone, at: { x: number; y: number }, restMs = 0): Promise<number> {
  const session = p.tab().session;
  await p.browser.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: at.x, y: at.y }] }, session);
  if (restMs > 0) await sleep(restMs);
  const lifted = Date.now();
  // The tap may take its page away before the page answers the lift (a
  // page rendered ahead shown in its place, this one frozen in the
  // back/forward cache or closed): the answer is waited for a second at
  // most. Waiting for it whole held the visit until the runner's timeout.
  const end = p.browser.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] }, session).catch(() => undefined);
  await Promise.race([end, sleep(1000)]);
  return lifted;
}

/** Waits until the tab's page is at path, as Chromium reports it (a page
 *  rendered ahead activated, or a page committed), without asking the page
 *  anything: a question is a task on its main thread, and one asked while
 *  the page paints delays the paint measured. */
async function lands(p: Phone, path: string, timeoutMs = 60_000): Promise<PageTarget> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const [session, info] of p.browser.pages) {
      if (info.subtype === "prerender" || !info.url.startsWith("http") || new URL(info.url).pathname !== path) continue;
      p.current = { session, info };
      return p.current;
    }
    if (Date.now() > deadline) throw new Error(`taps: ${path} not reached in ${timeoutMs} ms`);
    await sleep(5);
  }
}

/** How the page a tap led to arrived, on the wall clock: rendered ahead
 *  (activationStart), its first paint, when a day of its calendar could be
 *  chosen (when asked: the server's month, in the first paint's HTML) and
 *  when the calendar island had mounted over it and drawn its days. It is
 *  asked once, well after the paint (the entries are kept), and waits if
 *  they are still to come, ARRIVAL_MS at most: then it fails saying what it
 *  waited for and what the page had. */
type Arrival = { deliveryType: string; prerendered: boolean; activatedAt: number; loadedAt: number; paintAt: number; usableAt?: number; islandAt?: number; island?: string };
const ARRIVAL_MS = 30_000;
async function arrival(p: Phone, page: PageTarget, calendar: boolean): Promise<Arrival> {
  await sleep(1500);
  const got = await p.browser.evaluate<Arrival & { waiting?: string }>(page.session, `(async () => {
    let waiting = "";
    const within = (what, promise) => { waiting = what; return promise; };
    const entry = (type, name) => new Promise((found) => {
      const seen = () => performance.getEntriesByName(name).find((e) => e.entryType === type);
      if (seen()) return found(seen());
      new PerformanceObserver((list, observer) => {
        if (!seen()) return;
        observer.disconnect();
        found(seen());
      }).observe({ type, buffered: true });
    });
    const island = () => document.querySelector('[data-island="calendar"]')?.getAttribute("data-island-state") ?? "";
    const all = (async () => {
      const n = performance.getEntriesByType("navigation")[0];
      const paint = await within("the first contentful paint", entry("paint", "first-contentful-paint"));
      if (!n.loadEventEnd) await within("the load event", new Promise((loaded) => addEventListener("load", () => setTimeout(loaded), { once: true })));
      // The island's end: mounted, or given up (its deadline, or the
      // customer's use of the server's month).
      const mounted = ${calendar} ? await within("the calendar island's mount", Promise.race([
        entry("mark", "island-mounted:calendar"),
        new Promise((done) => { const t = setInterval(() => { if (["failed", "kept"].includes(island())) { clearInterval(t); done(undefined); } }, 100); }),
      ])) : undefined;
      // flatpickr draws its days a task after the island's commit.
      const drawn = !mounted || document.querySelector(".cal .flatpickr-calendar") ? 0 : await within("flatpickr's days", new Promise((seen) => {
        new MutationObserver((_, observer) => {
          if (!document.querySelector(".cal .flatpickr-calendar")) return;
          observer.disconnect();
          seen(performance.now());
        }).observe(document.body, { childList: true, subtree: true });
      }));
      // A day can be chosen at the first paint when the server's month is
      // in the page; else once the island has drawn its days.
      const month = document.querySelector(".sm a.d") !== null;
      return {
        deliveryType: n.deliveryType ?? "",
        prerendered: (n.activationStart ?? 0) > 0,
        activatedAt: performance.timeOrigin + (n.activationStart ?? 0),
        loadedAt: performance.timeOrigin + n.loadEventEnd,
        paintAt: performance.timeOrigin + paint.startTime,
        usableAt: !${calendar} ? undefined : month ? performance.timeOrigin + paint.startTime : mounted ? performance.timeOrigin + Math.max(paint.startTime, mounted.startTime, drawn) : undefined,
        islandAt: mounted ? performance.timeOrigin + Math.max(paint.startTime, mounted.startTime, drawn) : undefined,
        island: island(),
      };
    })();
    const late = new Promise((done) => setTimeout(() => done({ waiting }), ${ARRIVAL_MS}));
    const r = await Promise.race([all, late]);
    if (!r.waiting) return r;
    const files = performance.getEntriesByType("resource").filter((e) => e.name.includes("/static/dist/")).map((e) => e.name.split("/").pop() + (e.responseEnd ? " " + Math.round(e.responseEnd) + " ms" : " not arrived"));
    return { ...r, island: island(), files, prerendering: document.prerendering, visibility: document.visibilityState, marks: performance.getEntriesByType("mark").map((m) => m.name) };
  })()`, ARRIVAL_MS + 5000);
  if (got.waiting) throw new Error(`taps: ${page.info.url} still waiting for ${got.waiting} after ${ARRIVAL_MS} ms: ${JSON.stringify(got)}`);
  return got;
}

/** An arrival's times from the tap: its first paint, when it was shown (a
 *  page rendered ahead) and when it had loaded (before the tap, if it was
 *  rendered ahead in time). */
function since(a: Arrival, tapAt: number) {
  return { firstPaintMs: Math.round(a.paintAt - tapAt), shownMs: Math.round(a.activatedAt - tapAt), loadedMs: Math.round(a.loadedAt - tapAt) };
}

/** The provider's calls so far, all paths together. */
async function providerCalls(): Promise<number> {
  const res = await fetch(`${process.env.LK_E2E_SANDBOX}/sandbox/calls`);
  const calls = (await res.json()) as Record<string, number>;
  return Object.values(calls).reduce((a, b) => a + b, 0);
}

async function screenshot(p: Phone, page: PageTarget, name: string): Promise<void> {
  const shot = await p.browser.send("Page.captureScreenshot", { format: "png" }, page.session);
  mkdirSync("test-results", { recursive: true });
  writeFileSync(`test-results/${name}`, Buffer.from(shot.data, "base64"));
}

/** TAPS_TRACE=1: a trace of the browser's processes around a tap, until
 *  the page it led to has painted, in test-results/taps-trace-*.json (open
 *  it in Perfetto or chrome://tracing; metadata.tapAtWall is the tap). */
async function startTrace(p: Phone): Promise<(name: string, tapAt: number) => Promise<void>> {
  const events: unknown[] = [];
  let complete!: () => void;
  const done = new Promise<void>((r) => (complete = r));
  const off = p.browser.on((m) => {
    if (m.method === "Tracing.dataCollected") events.push(...m.params.value);
    if (m.method === "Tracing.tracingComplete") complete();
  });
  const categories = "toplevel,devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.frame,blink.user_timing,loading,navigation,cc,viz,input,benchmark,latencyInfo,blink,v8.execute,renderer.scheduler,disabled-by-default-devtools.timeline.invalidationTracking";
  await p.browser.send("Tracing.start", { categories, transferMode: "ReportEvents" });
  return async (name, tapAt) => {
    await sleep(500);
    await p.browser.send("Tracing.end");
    await done;
    off();
    mkdirSync("test-results", { recursive: true });
    writeFileSync(`test-results/${name}`, JSON.stringify({ traceEvents: events, metadata: { tapAtWall: tapAt } }));
  };
}

/** Back, as the browser's button does it. */
async function back(p: Phone): Promise<void> {
  const history = await p.browser.send("Page.getNavigationHistory", {}, p.tab().session);
  await p.browser.send("Page.navigateToHistoryEntry", { entryId: history.entries[history.currentIndex - 1].id }, p.tab().session);
}

/** The visit: the list, 3 s; a finger rests on an order for 300 ms, then
 *  is lifted (the tap, timed from the lift); 3 s on the order, then a tap
 *  on 'Перенести' (timed from the finger's touch); Back; then sign-out,
 *  and Back again. */
async function visit(saveData: boolean, quick = false) {
  const p = await phone(saveData);
  const name = quick ? "quick" : saveData ? "without" : "with";
  try {
    const before = await providerCalls();
    await p.browser.send("Page.navigate", { url: `${p.link.url}/orders` }, p.tab().session);
    await shows(p, "/orders");
    const order = await centre(p, ORDER);
    await sleep(3000);
    const trace = process.env.TAPS_TRACE && !saveData ? await startTrace(p) : undefined;
    const tapOrder = await finger(p, order, 300);
    const orderPage = await lands(p, order.href);
    // The quick visit taps 'Перенести' as soon as the order page has
    // loaded: nothing of the move is fetched or rendered ahead by then.
    const toOrder = quick ? await shows(p, order.href).then(() => undefined) : await arrival(p, orderPage, false);
    if (trace) await trace(`taps-trace-order.json`, tapOrder);
    if (!quick) await screenshot(p, orderPage, `taps-order-${name}.png`);

    const move = await centre(p, MOVE);
    await p.browser.evaluate(orderPage.session, `(window.kept = true, addEventListener("pageshow", (e) => (window.restored = e.persisted)), true)`);
    if (!quick) await sleep(3000);
    const traceMove = process.env.TAPS_TRACE && !saveData ? await startTrace(p) : undefined;
    const tapMove = Date.now();
    await finger(p, move);
    const movePage = await lands(p, move.href);
    const toMove = await arrival(p, movePage, true);
    if (traceMove) await traceMove(`taps-trace-move.json`, tapMove);
    await screenshot(p, movePage, `taps-move-${name}.png`);

    await back(p);
    const orderAgain = await shows(p, order.href);
    const restored = await p.browser.evaluate<{ kept: boolean; restored: boolean }>(orderAgain.session, `({ kept: window.kept === true, restored: window.restored === true })`);
    await sleep(2000); // what was fetched ahead has arrived
    const calls = (await providerCalls()) - before;

    // Sign-out, then Back: the sign-in page, no account page kept.
    const signOut = await centre(p, `form[action="/logout"] button`);
    await finger(p, signOut);
    await shows(p, "/login");
    await back(p);
    await sleep(1000);
    const afterSignOut = await p.browser.evaluate<string>(p.tab().session, `location.pathname + (document.querySelector('nav[aria-label="Меню кабинета"]') ? " with the account's menu" : "")`);

    return {
      order: toOrder && { ...toOrder, ...since(toOrder, tapOrder) },
      move: {
        ...toMove,
        ...since(toMove, tapMove),
        usableCalendarMs: Math.round(toMove.usableAt! - tapMove),
        islandMs: toMove.islandAt ? Math.round(toMove.islandAt - tapMove) : undefined,
      },
      back: restored,
      afterSignOut,
      calls,
      requests: p.link.requests,
    };
  } finally {
    await p.browser.close();
    await p.link.close();
  }
}

test("three taps on a slow phone, pages rendered ahead as a phone's Chromium does", async () => {
  test.setTimeout(300_000);
  const without = await visit(true);
  const ahead = await visit(false);
  const quick = await visit(true, true);
  // The pages fetched ahead (their files are marked too, when a page
  // rendered ahead asks for them).
  const speculative = ahead.requests.filter((r) => r.purpose !== "" && !r.path.startsWith("/static/"));
  const figures = {
    link: "400 kbps, 400 ms round trip",
    cpu: "x4",
    width: 360,
    with: { ...ahead, requests: undefined, speculative },
    without: { ...without, requests: undefined },
    quick: { ...quick, requests: undefined },
  };
  mkdirSync("test-results", { recursive: true });
  writeFileSync("test-results/taps.json", JSON.stringify(figures, null, 2));
  console.log(
    `taps on a slow phone (ms, with / without speculation): order → first paint ${ahead.order?.firstPaintMs} / ${without.order?.firstPaintMs}; ` +
      `'Перенести' → a day to choose ${ahead.move.usableCalendarMs} / ${without.move.usableCalendarMs} (tapped as the order loaded: ${quick.move.usableCalendarMs}), ` +
      `the island ${ahead.move.islandMs} / ${without.move.islandMs} / ${quick.move.islandMs}; provider calls ${ahead.calls} / ${without.calls}`,
  );
  // A day can be chosen at the move page's first paint, however it came:
  // the server's month is in its HTML.
  for (const v of [ahead, without, quick]) expect(v.move.usableCalendarMs, JSON.stringify(v.move)).toBe(v.move.firstPaintMs);

  // What makes the taps short: the move page was rendered ahead (its rule
  // takes it once the order page has loaded), the order at least fetched
  // ahead; nothing was fetched ahead under Save-Data.
  expect(ahead.move.prerendered, JSON.stringify(figures.with)).toBe(true);
  expect(ahead.order?.prerendered || ahead.order?.deliveryType === "navigational-prefetch", JSON.stringify(figures.with)).toBe(true);
  expect(without.requests.filter((r) => r.purpose !== "").map((r) => r.path)).toEqual([]);
  expect(without.order?.prerendered || without.move.prerendered || quick.move.prerendered).toBe(false);
  // Only pages a customer takes next were fetched ahead: orders and moves.
  for (const r of speculative) expect(r.path, `fetched ahead: ${r.path}`).toMatch(/^\/orders\/[A-Za-z]+\/[^/?]+(\/transfer)?$/);
  // What it costs the provider: within a quarter of the visit without.
  expect(ahead.calls, `provider calls per visit: ${ahead.calls} with speculation, ${without.calls} without`).toBeLessThanOrEqual(without.calls * 1.25);
  // Back shows the order page as it was left (the back/forward cache);
  // after sign-out, Back shows no account page.
  for (const v of [ahead, without, quick]) {
    expect(v.back).toEqual({ kept: true, restored: true });
    expect(v.afterSignOut).toBe("/login");
  }
});
