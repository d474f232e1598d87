// The account as an installable app: its offline worker and its manifest,
// each asked for only once it no longer competes with the page.
import { idle } from "./when";

/** Registers the offline worker when the page names it (<html data-worker>:
 *  signed-in pages), once the page has loaded; without service workers, or
 *  if registering fails, the page is as it was. */
export function registerWorker(doc: Document = document, win: Window = window): void {
  const url = doc.documentElement.dataset.worker;
  // Only then: the first look at navigator.serviceWorker sets up the page's
  // link to its workers, work a page without one skips.
  if (!url) return;
  const sw = win.navigator.serviceWorker;
  if (!sw) return;
  const register = () => {
    sw.register(url, { scope: "/" }).catch((err: unknown) => console.warn("[islands] offline worker not registered", err));
  };
  if (doc.readyState === "complete") register();
  else win.addEventListener("load", register, { once: true });
}

/** Links the app's manifest when the page names it (<html data-manifest>),
 *  once idle: linking it sets the browser checking whether the app can be
 *  installed, work that would compete with the page while it starts. */
export async function linkManifest(doc: Document = document, win: Window = window): Promise<void> {
  const href = doc.documentElement.dataset.manifest;
  if (!href || doc.querySelector('link[rel="manifest"]')) return;
  await idle(win);
  if (doc.querySelector('link[rel="manifest"]')) return;
  doc.head.append(Object.assign(doc.createElement("link"), { rel: "manifest", href }));
}
