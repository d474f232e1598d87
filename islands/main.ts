// The one mount loop. Pages stay plain server-rendered HTML; this script
// (loaded as <script type="module">, so deferred) only enhances them:
//
//   <div data-island="sms-code" data-props="sms-code-props"> …fallback… </div>
//   <script id="sms-code-props" type="application/json">{…}</script>
//   <input name="phone" data-enhance="phone">
//
// Components and enhancements are imported lazily, only after the page's
// first paint, so a page pays only for what it has and never before it is
// on the screen; if anything fails the server-rendered fallback stays.
import type { ComponentType } from "react";
import { prepareReactSignals } from "./react-signals";

type IslandLoader = () => Promise<{ default: ComponentType<any> }>;
type EnhanceLoader = () => Promise<{ default: (el: HTMLElement) => unknown }>;

// Static maps so that Vite sees every import() and splits a chunk per entry.
export const islands: Record<string, IslandLoader> = {
  "sms-code": () => import("./sms-code/SmsCode"),
  "slot-picker": () => import("./slot-picker/SlotPicker"),
  calendar: () => import("./calendar/TransferCalendar"),
};

export const enhancements: Record<string, EnhanceLoader> = {
  phone: () => import("./enhance/phone"),
  birthday: () => import("./enhance/birthday"),
  files: () => import("./enhance/files"),
};

function warn(what: string, err: unknown): void {
  console.warn(`[islands] ${what}: fallback kept`, err);
}

/** Finds the island's props: the JSON script named by data-props, or else the
 *  next sibling <script type="application/json">; no props at all means {}. */
export function readProps(el: HTMLElement): Record<string, unknown> {
  let script: Element | null = null;
  const id = el.dataset.props;
  if (id) {
    script = document.getElementById(id);
    if (!script) throw new Error(`props element #${id} not found`);
  } else {
    const next = el.nextElementSibling;
    if (next?.matches('script[type="application/json"]')) script = next;
  }
  if (!script) return {};
  if (!script.matches('script[type="application/json"]')) {
    throw new Error("props element is not <script type=\"application/json\">");
  }
  const props: unknown = JSON.parse(script.textContent || "");
  if (typeof props !== "object" || props === null || Array.isArray(props)) {
    throw new Error("props must be a JSON object");
  }
  return props as Record<string, unknown>;
}

async function mountIsland(el: HTMLElement, registry: Record<string, IslandLoader>): Promise<void> {
  const name = el.dataset.island ?? "";
  el.dataset.islandState = "loading";
  try {
    const load = registry[name];
    if (!load) throw new Error(`unknown island "${name}"`);
    const props = readProps(el);
    // React first, the island's own module after it, then the render: each
    // in a task of its own, so that the page's thread is never held for
    // all three at once (their files have mostly arrived by now, and then
    // each import would go on at once in the same task).
    // React's signal errors are made here, on a short stack, not while
    // react-dom's module runs (see react-signals.ts); for the islands that
    // mount at once they were made before their modules ran.
    prepareReactSignals();
    const { mount } = await import("./react-mount");
    await nextTask();
    const mod = await load();
    await nextTask();
    await mount(el, mod.default, props, (err) => {
      el.dataset.islandState = "failed";
      warn(`island "${name}" crashed`, err);
    });
    el.dataset.islandState = "mounted";
  } catch (err) {
    el.dataset.islandState = "failed";
    warn(`island "${name}" not mounted`, err);
  }
}

async function enhance(el: HTMLElement, registry: Record<string, EnhanceLoader>): Promise<void> {
  const name = el.dataset.enhance ?? "";
  try {
    const load = registry[name];
    if (!load) throw new Error(`unknown enhancement "${name}"`);
    (await load()).default(el);
    el.dataset.enhanceState = "done";
  } catch (err) {
    warn(`enhancement "${name}" not applied`, err);
  }
}

/**
 * An island that has work only once its form is sent (the code dialog of
 * /login and /signup: <div data-island="sms-code" data-mount-on-submit="#login-form">)
 * waits for that: its files are fetched after the first paint as any
 * island's are, but React and the island run only when the form is first
 * sent, so loading the page runs none of them. That first submit is held
 * while the island mounts and then sent again, to the island; if the island
 * cannot mount, it goes to the server as it would without JavaScript.
 */
function mountOnSubmit(el: HTMLElement, selector: string, registry: Record<string, IslandLoader>): void {
  const form = document.querySelector(selector);
  if (!(form instanceof HTMLFormElement)) {
    el.dataset.islandState = "failed";
    warn(`island "${el.dataset.island}" not mounted`, new Error(`form ${selector} not found`));
    return;
  }
  el.dataset.islandState = "waiting";
  let loading = false;
  const hold = (event: SubmitEvent) => {
    event.preventDefault();
    // A second tap while the island comes is dropped: the first one is
    // what will be sent, once.
    if (loading) return;
    loading = true;
    const submitter = event.submitter instanceof HTMLElement ? event.submitter : null;
    void mountIsland(el, registry).then(() => {
      form.removeEventListener("submit", hold);
      form.requestSubmit(submitter);
    });
  };
  form.addEventListener("submit", hold);
}

/**
 * Mounts every island and applies every enhancement under root, once each.
 * The islands that mount now start only once ready() resolves; it is
 * called once, and only when there is such an island (in the page: once the
 * island files have all arrived and their modules have run, see
 * requestAssets and runModules). While the files stream in, the browser is
 * busy receiving them, and an island that started meanwhile would run a step
 * each time one of its files came in, every step competing with that work.
 * Enhancements, and the islands that wait for their form to be sent, start
 * at once.
 */
export function mountAll(
  root: ParentNode = document,
  islandMap: Record<string, IslandLoader> = islands,
  enhanceMap: Record<string, EnhanceLoader> = enhancements,
  ready: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const jobs: Promise<void>[] = [];
  let started: Promise<void> | undefined;
  root.querySelectorAll<HTMLElement>("[data-island]").forEach((el) => {
    if (el.dataset.islandState) return;
    const form = el.dataset.mountOnSubmit;
    if (form) {
      mountOnSubmit(el, form, islandMap);
      return;
    }
    el.dataset.islandState = "loading";
    started ??= ready();
    jobs.push(started.then(() => mountIsland(el, islandMap)));
  });
  root.querySelectorAll<HTMLElement>("[data-enhance]").forEach((el) => {
    if (!el.dataset.enhanceState) jobs.push(enhance(el, enhanceMap));
  });
  return Promise.all(jobs).then(() => undefined);
}

/** Registers the offline worker when the page names it (<html
 *  data-worker>: signed-in pages where every sign-in lands), only once the
 *  page has loaded, so it never competes with the page itself. Without
 *  service workers, or if registering fails, the page is as it was. */
export function registerWorker(doc: Document = document, win: Window = window): void {
  const url = doc.documentElement.dataset.worker;
  // Only then: the first look at navigator.serviceWorker has the browser
  // set up the page's link to its workers, work a page without one skips.
  if (!url) return;
  const sw = win.navigator.serviceWorker;
  if (!sw) return;
  const register = () => {
    sw.register(url, { scope: "/" }).catch((err: unknown) => console.warn("[islands] offline worker not registered", err));
  };
  if (doc.readyState === "complete") register();
  else win.addEventListener("load", register, { once: true });
}

/** Links the app's manifest when the page names it (<html
 *  data-manifest>: signed-in pages), once the browser is idle after the
 *  islands have mounted: linking it sets the browser checking whether the
 *  app can be installed, work that would otherwise compete with the page
 *  while it starts. */
export function linkManifest(doc: Document = document, win: Window = window): void {
  const href = doc.documentElement.dataset.manifest;
  if (!href || doc.querySelector('link[rel="manifest"]')) return;
  const link = () => {
    if (doc.querySelector('link[rel="manifest"]')) return;
    const el = doc.createElement("link");
    el.rel = "manifest";
    el.href = href;
    doc.head.append(el);
  };
  if (typeof win.requestIdleCallback === "function") win.requestIdleCallback(link, { timeout: 2000 });
  else win.setTimeout(link, 0);
}

/** Resolves once the browser has painted the page's first content: until
 *  then nothing of an island is fetched or run, so the server's HTML has the
 *  network and the main thread to itself. A browser that does not report
 *  paints goes on once the next frame has been drawn. */
export function afterFirstPaint(win: Window & typeof globalThis = window): Promise<void> {
  return new Promise((resolve) => {
    const Observer = win.PerformanceObserver as typeof PerformanceObserver | undefined;
    if (!Observer?.supportedEntryTypes?.includes("paint")) {
      win.requestAnimationFrame(() => win.setTimeout(resolve, 0));
      return;
    }
    const observer = new Observer((list) => {
      if (list.getEntriesByName("first-contentful-paint").length === 0) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: "paint", buffered: true });
  });
}

/** The id of the server's list of island files (views.IslandAssetsID). */
export const ASSETS = "island-assets";

/** Asks for every file of the page's islands at once: the server lists
 *  them as low-priority preload links in an inert <template> (a template's
 *  links fetch nothing), and put in the head they are fetched in parallel,
 *  so no island waits for one file to learn of the next. The links go in
 *  one a task: the browser prepares a link's request as it goes in, about a
 *  millisecond of the page's thread each, and the page stays free to answer
 *  in between. Resolves once each file has arrived or failed, with the
 *  addresses of the modules among them in the server's order; a link the
 *  browser does not know (modulepreload in an older browser) fetches nothing
 *  and is neither waited for nor listed (running such modules one at a time
 *  would fetch them one after another; the islands' own imports fetch them
 *  together). */
export async function requestAssets(doc: Document = document, win: Window = window): Promise<string[]> {
  const list = doc.getElementById(ASSETS);
  if (!(list instanceof HTMLTemplateElement)) return [];
  const known = doc.createElement("link").relList;
  const links = Array.from(list.content.querySelectorAll("link"));
  list.remove();
  const fetched = links.filter((link) => !known?.supports || known.supports(link.rel));
  const arrived = fetched.map(
    (link) =>
      new Promise<void>((done) => {
        link.addEventListener("load", () => done(), { once: true });
        link.addEventListener("error", () => done(), { once: true });
      }),
  );
  for (const [i, link] of links.entries()) {
    if (i > 0) await nextTask(win);
    doc.head.append(link);
  }
  await Promise.all(arrived);
  return fetched.filter((link) => link.rel === "modulepreload").map((link) => link.href);
}

/** Runs the page's island modules (their files have arrived) one a task,
 *  in the server's order, where each comes after the modules it imports:
 *  so each import runs that one module's code and nothing else, and the
 *  work of starting the islands is spread over several short tasks (React's
 *  file is most of it, flatpickr's the next) rather than piled into the
 *  task that first imports them. Running a module starts nothing: the
 *  islands start when the mount loop renders them. A module that fails is
 *  skipped here; the island that needs it then keeps its fallback. */
export async function runModules(
  urls: string[],
  win: Window = window,
  load: (url: string) => Promise<unknown> = (url) => import(/* @vite-ignore */ url),
): Promise<void> {
  for (const url of urls) {
    await load(url).catch(() => undefined);
    await nextTask(win);
  }
}

/** Resolves in a task of its own, so that the work before it and the work
 *  after it each hold the page for a short while, not one long one. */
export function nextTask(win: Window = window): Promise<void> {
  return new Promise((resolve) => win.setTimeout(resolve, 0));
}

function domReady(): Promise<void> {
  if (document.readyState !== "loading") return Promise.resolve();
  return new Promise((done) => document.addEventListener("DOMContentLoaded", () => done(), { once: true }));
}

registerWorker();

// Module scripts run after parsing, so the DOM is complete here; the check
// covers the script being loaded some other way.
void domReady()
  .then(() => afterFirstPaint())
  .then(() => {
    const arrived = requestAssets();
    // The islands that mount now wait for their files and then for their
    // modules, run one a task. React's module is among them, so its signal
    // errors are made first (see react-signals.ts).
    const ready = () =>
      arrived.then((urls) => {
        prepareReactSignals();
        return runModules(urls);
      });
    return nextTask().then(() => mountAll(document, islands, enhancements, ready));
  })
  .then(() => linkManifest());
