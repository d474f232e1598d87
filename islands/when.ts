// When an island mounts, apart from how (main.ts mounts). As Astro's client
// directives, an island says when it is worth its cost:
//
//   <div data-island="calendar">                          idle (client:idle): once
//                                                         the page has painted, its
//                                                         island files have arrived
//                                                         and the browser is idle
//   <div data-island="sms-code" data-mount-on-submit="#login-form">
//                                                         on submit: only when that
//                                                         form is first sent

/** Resolves once the browser has painted the page's first content: until
 *  then nothing of an island is fetched or run, so the server's HTML has the
 *  network and the main thread to itself. A browser that does not report
 *  paints goes on once the next frame has been drawn. A page rendered ahead
 *  of a tap (speculation rules' prerender) goes on at once: nobody sees it
 *  yet, it paints only when tapped, and its islands are then there. */
export function afterFirstPaint(win: Window & typeof globalThis = window): Promise<void> {
  return new Promise((resolve) => {
    // A page whose paint is never reported goes on a second after it has
    // loaded: the paint, when it comes, comes well before that.
    const backstop = () => win.setTimeout(resolve, 1000);
    if (win.document?.readyState === "complete") backstop();
    else win.addEventListener?.("load", backstop, { once: true });
    if ((win.document as Document & { prerendering?: boolean } | undefined)?.prerendering) {
      resolve();
      return;
    }
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

/** Puts the server's list of the page's island files (low-priority preload
 *  links in an inert <template>) in the head at once, so they are fetched
 *  together, and resolves once each has arrived or failed, or FILES_WAIT_MS
 *  after the page is shown, whichever comes first (a stalled file holds
 *  nothing). Islands start only then: while files stream in the browser is
 *  busy receiving them, and an island started meanwhile would run a step
 *  as each file came in. A link the browser does not know (modulepreload
 *  in an older browser) fetches nothing and is not waited for; the
 *  islands' imports fetch it. */
export function filesArrived(doc: Document = document, win: Window = window): Promise<void> {
  const list = doc.getElementById(ASSETS);
  if (!(list instanceof HTMLTemplateElement)) return Promise.resolve();
  const known = doc.createElement("link").relList;
  const links = Array.from(list.content.querySelectorAll("link"));
  list.remove();
  const arrived = links
    .filter((link) => !known?.supports || known.supports(link.rel))
    .map((link) => new Promise((done) => ["load", "error"].forEach((on) => link.addEventListener(on, done, { once: true }))));
  doc.head.append(...links);
  return Promise.race([Promise.all(arrived).then(() => undefined), shownFor(FILES_WAIT_MS, doc, win)]);
}

/** Resolves when the browser is next idle (a second at most); without idle
 *  callbacks, after the current task. */
export function idle(win: Window = window): Promise<void> {
  return new Promise((resolve) => {
    if (typeof win.requestIdleCallback === "function") win.requestIdleCallback(() => resolve(), { timeout: 1000 });
    else win.setTimeout(resolve, 0);
  });
}

/** Resolves in a task of its own, so that the work before it and the work
 *  after it hold the page for two short whiles, not one long one. */
export function nextTask(win: Window = window): Promise<void> {
  return new Promise((resolve) => win.setTimeout(resolve, 0));
}

/** How long a submit held for an island (the code dialog) waits for it
 *  before it goes to the server as the page's plain form. Without the
 *  dialog the server's path is the POST, its redirect and the code page:
 *  two round trips, about a second on the slow mobile links this account is
 *  built for. Waiting longer than that for the island would make the
 *  enhancement slower than no enhancement; on a good link the dialog is
 *  there in a fraction of it (its files were fetched after the first paint). */
export const SUBMIT_WAIT_MS = 1000;

/** How long an island may take to mount once its page is shown. The
 *  server's version (a month of days, radio buttons) is usable meanwhile,
 *  so nothing waits on it; past this the island is marked failed and the
 *  server's version stays for good, rather than changing under a customer
 *  who has been reading it for ten seconds. The calendar's files (about
 *  95 KB) take about 2 s on a 400 kbps link. */
export const MOUNT_WAIT_MS = 10_000;

/** How long the islands wait for their files to arrive together before
 *  they start anyway (each import then fetches what it still needs, or
 *  stalls until MOUNT_WAIT_MS). */
export const FILES_WAIT_MS = 4000;

/** Resolves ms after the page is shown: at once for a page on screen; for a
 *  page rendered ahead of a tap, counted from the tap that shows it (until
 *  then nobody waits for it). */
export function shownFor(ms: number, doc: Document = document, win: Window = window): Promise<void> {
  return new Promise((resolve) => {
    const start = () => win.setTimeout(resolve, ms);
    if ((doc as Document & { prerendering?: boolean }).prerendering) doc.addEventListener("prerenderingchange", start, { once: true });
    else start();
  });
}

/** An island's deadline: ms after the page is shown it is given up. */
export function deadline(ms: number): AbortController {
  const ctl = new AbortController();
  void shownFor(ms).then(() => ctl.abort(new Late(ms)));
  return ctl;
}

/** p, or a rejection as soon as signal is aborted: a stalled import (a
 *  request neither answered nor failed) must not hold what waits on it. */
export function until<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", stop);
        resolve(v);
      },
      (err) => {
        signal.removeEventListener("abort", stop);
        reject(err);
      },
    );
  });
}

/** Aborts signal's controller once the customer starts using the server's
 *  version inside el (a tap, a key, the focus, a value typed or chosen): an
 *  island that comes after that leaves the page to them. */
export function whenUsed(el: HTMLElement, ctl: AbortController): void {
  const events = ["pointerdown", "keydown", "focusin", "input", "change"] as const;
  const used = () => {
    events.forEach((on) => el.removeEventListener(on, used, true));
    ctl.abort(new Used());
  };
  events.forEach((on) => el.addEventListener(on, used, true));
  ctl.signal.addEventListener("abort", () => events.forEach((on) => el.removeEventListener(on, used, true)), { once: true });
}

/** The reason an island did not mount because the customer was already
 *  using the server's version. */
export class Used extends Error {
  constructor() {
    super("the customer is using the server's version");
  }
}

/** The reason an island did not mount in its time. */
export class Late extends Error {
  constructor(ms: number) {
    super(`not there within ${ms} ms`);
  }
}

/** What the mount loop does once the island has mounted, or failed to. */
export type Then = () => void;

/**
 * Holds the form's first submit and resolves then, so that loading the page
 * runs nothing of the island (the code dialog of /login and /signup): the
 * returned Then sends that submit again, with its button, once the island
 * is there to take it, or to the server if it could not mount in time. A
 * second tap while the island comes is dropped: the first one is sent, once.
 */
export function onSubmit(form: HTMLFormElement): Promise<Then> {
  return new Promise((resolve) => {
    let held = false;
    const hold = (event: SubmitEvent) => {
      event.preventDefault();
      if (held) return;
      held = true;
      const submitter = event.submitter instanceof HTMLElement ? event.submitter : null;
      let sent = false;
      resolve(() => {
        if (sent) return;
        sent = true;
        form.removeEventListener("submit", hold);
        form.requestSubmit(submitter);
      });
    };
    form.addEventListener("submit", hold);
  });
}
