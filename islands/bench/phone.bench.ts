// The move pages as a slow phone lives them: the CPU slowed 4× (CDP's
// Emulation.setCPUThrottlingRate, no DevTools tracing), and the page's own
// timings read from inside it — first contentful paint, the long tasks and
// long animation frames a PerformanceObserver reports, and when the last
// island had mounted. Not a test: `make phone` prints the
// median of PHONE_RUNS loads a page (default 5); nothing here is judged.
import type { BrowserContext, Page } from "@playwright/test";
import { test } from "../e2e/fixtures";
import { signUpNew } from "../e2e/helpers";

const RUNS = Number(process.env.PHONE_RUNS || 5);
const RATE = Number(process.env.PHONE_CPU || 4);

type Sample = { fcp: number; mounted: number; tasks: number; longest: number; blocking: number; frames: number; frameBlocking: number };

/** Collects, from before the page's first script, what the browser reports
 *  of the page's main thread and the moment each island mounts. */
function observe(): void {
  const w = window as unknown as { phone: { long: number[]; frames: number[]; mounted: number } };
  w.phone = { long: [], frames: [], mounted: 0 };
  const watch = (type: string, into: number[], value: (e: PerformanceEntry) => number) => {
    if (!PerformanceObserver.supportedEntryTypes.includes(type)) return;
    new PerformanceObserver((list) => list.getEntries().forEach((e) => into.push(value(e)))).observe({ type, buffered: true });
  };
  watch("longtask", w.phone.long, (e) => e.duration);
  // A long animation frame's blocking duration: the part of its long tasks
  // past 50 ms, plus rendering, that kept input waiting.
  watch("long-animation-frame", w.phone.frames, (e) => (e as PerformanceEntry & { blockingDuration: number }).blockingDuration);
  new MutationObserver(() => {
    const all = document.querySelectorAll("[data-island]:not([data-mount-on-submit])");
    if (all.length > 0 && Array.from(all).every((el) => el.getAttribute("data-island-state") === "mounted") && !w.phone.mounted) {
      w.phone.mounted = performance.now();
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-island-state"] });
}

async function load(context: BrowserContext, path: string): Promise<Sample> {
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: RATE });
  await page.addInitScript(observe);
  await page.goto(path);
  await page.waitForFunction(() => (window as unknown as { phone: { mounted: number } }).phone.mounted > 0, null, { timeout: 60_000 });
  // The calendar draws its days after the mount; then a quiet second, so
  // that the last task is reported.
  await page.locator(".cal .flatpickr-calendar").first().waitFor({ state: "attached", timeout: 60_000 });
  await page.waitForTimeout(1500);
  const s = await page.evaluate(() => {
    const w = window as unknown as { phone: { long: number[]; frames: number[]; mounted: number } };
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1;
    const long = w.phone.long;
    return {
      fcp,
      mounted: w.phone.mounted,
      tasks: long.length,
      longest: long.length ? Math.max(...long) : 0,
      blocking: long.reduce((a, d) => a + Math.max(0, d - 50), 0),
      frames: w.phone.frames.length,
      frameBlocking: w.phone.frames.reduce((a, d) => a + d, 0),
    };
  });
  await page.close();
  return s;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

test("move pages on a phone", async ({ browser }) => {
  test.setTimeout(RUNS * 5 * 60_000);
  const setup = await browser.newPage({ viewport: { width: 412, height: 823 } });
  await signUpNew(setup, "Вера", "Тестова");
  const moves: Record<string, string> = {};
  const orders = await setup
    .locator('section[aria-labelledby="active-h"] a[href^="/orders/"]')
    .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? "").filter((h) => /^\/orders\/\w+\/\d+$/.test(h)));
  for (const href of orders) {
    const kind = href.split("/")[2];
    if (moves[kind]) continue;
    await setup.goto(href);
    if ((await setup.locator(`main a[href="${href}/transfer"]`).count()) > 0) moves[kind] = `${href}/transfer`;
  }
  const cookies = await setup.context().cookies();
  await setup.close();

  const rows: string[] = [];
  for (const [kind, path] of Object.entries(moves)) {
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
      await context.addCookies(cookies);
      samples.push(await load(context, path));
      await context.close();
    }
    const m = (k: keyof Sample) => median(samples.map((s) => s[k])).toFixed(0);
    rows.push(
      `${kind.padEnd(9)} ${m("fcp").padStart(6)} ${m("mounted").padStart(8)} ${m("tasks").padStart(6)} ${m("longest").padStart(8)} ${m("blocking").padStart(9)} ${m("frames").padStart(7)} ${m("frameBlocking").padStart(9)}`,
    );
  }
  console.log(
    `\nmove pages, CPU ${RATE}× slower, median of ${RUNS} (ms; counts)\n` +
      `page         FCP  mounted  tasks  longest  blocking  frames  LoAF blk\n` +
      rows.join("\n"),
  );
});
