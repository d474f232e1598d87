// The files of the page an order leads to (its move: the calendar, the
// slot picker, React), fetched while the customer reads the order, so that
// the move page's islands start from the browser's cache. The server lists
// them in an inert <template> (a template's links fetch nothing) on an
// order page that offers a move, and only when the browser did not ask to
// save data; they go in the head as rel="prefetch" links, the lowest
// priority there is, once the page has loaded and the browser is idle.

/** The id of the server's list (views.NextAssetsID). */
export const NEXT_ASSETS = "next-assets";

type Connection = { saveData?: boolean; effectiveType?: string };

/** Whether the connection asks us to fetch nothing ahead: the customer saves
 *  data, or the link is 2G, where the files would take the page's bandwidth
 *  for long. */
export function holdBack(nav: Navigator): boolean {
  const conn = (nav as Navigator & { connection?: Connection }).connection;
  return conn?.saveData === true || /(^|-)2g$/.test(conn?.effectiveType ?? "");
}

/** Puts the listed links in the head once the page has loaded and the
 *  browser is idle; resolves with how many went (0 when held back). */
export function prefetchNext(doc: Document = document, win: Window = window): Promise<number> {
  const list = doc.getElementById(NEXT_ASSETS);
  if (!(list instanceof HTMLTemplateElement)) return Promise.resolve(0);
  list.remove();
  if (holdBack(win.navigator)) return Promise.resolve(0);
  const links = Array.from(list.content.querySelectorAll("link"));
  return new Promise((done) => {
    const go = () => {
      doc.head.append(...links);
      done(links.length);
    };
    const idle = () => {
      if (typeof win.requestIdleCallback === "function") win.requestIdleCallback(go, { timeout: 5000 });
      else win.setTimeout(go, 1000);
    };
    if (doc.readyState === "complete") idle();
    else win.addEventListener("load", idle, { once: true });
  });
}
