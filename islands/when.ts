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
 *  together, and resolves once each has arrived or failed. Islands start
 *  only then: while files stream in the browser is busy receiving them, and
 *  an island started meanwhile would run a step as each file came in. A
 *  link the browser does not know (modulepreload in an older browser)
 *  fetches nothing and is not waited for; the islands' imports fetch it. */
export function filesArrived(doc: Document = document): Promise<void> {
  const list = doc.getElementById(ASSETS);
  if (!(list instanceof HTMLTemplateElement)) return Promise.resolve();
  const known = doc.createElement("link").relList;
  const links = Array.from(list.content.querySelectorAll("link"));
  list.remove();
  const arrived = links
    .filter((link) => !known?.supports || known.supports(link.rel))
    .map((link) => new Promise((done) => ["load", "error"].forEach((on) => link.addEventListener(on, done, { once: true }))));
  doc.head.append(...links);
  return Promise.all(arrived).then(() => undefined);
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

/** What the mount loop does once the island has mounted, or failed to. */
export type Then = () => void;

/**
 * Holds the form's first submit and resolves then, so that loading the page
 * runs nothing of the island (the code dialog of /login and /signup): the
 * returned Then sends that submit again, with its button, once the island
 * is there to take it, or to the server if it could not mount. A second tap
 * while the island comes is dropped: the first one is sent, once.
 */
export function onSubmit(form: HTMLFormElement): Promise<Then> {
  return new Promise((resolve) => {
    let held = false;
    const hold = (event: SubmitEvent) => {
      event.preventDefault();
      if (held) return;
      held = true;
      const submitter = event.submitter instanceof HTMLElement ? event.submitter : null;
      resolve(() => {
        form.removeEventListener("submit", hold);
        form.requestSubmit(submitter);
      });
    };
    form.addEventListener("submit", hold);
  });
}
