// The page an order leads to (its move) and its files (the calendar, the
// slot picker, React), while the customer reads the order. The server names
// them in an inert <template> (a template's links fetch nothing) on an
// order page that offers a move, and only when the browser did not ask to
// save data. Once the page has loaded and the browser is idle, the files go
// in the head as rel="prefetch" links, the lowest priority there is, so
// that the move page's islands start from the browser's cache; and a
// speculation rule renders the move page ahead (Chromium), so that a tap on
// 'Перенести' shows it with its calendar ready. Not earlier, and not while
// the order page is itself rendered ahead: rendering the move would compete
// with the order page's own first paint.

/** The id of the server's list (views.NextAssetsID). */
export const NEXT_ASSETS = "next-assets";

/** The id of the page's own speculation rules (views.RulesID), whose CSP
 *  nonce the move's rule carries. */
export const RULES = "next-pages";

type Connection = { saveData?: boolean; effectiveType?: string };

/** Whether the connection asks us to fetch nothing ahead: the customer saves
 *  data, or the link is 2G, where the files would take the page's bandwidth
 *  for long. */
export function holdBack(nav: Navigator): boolean {
  const conn = (nav as Navigator & { connection?: Connection }).connection;
  return conn?.saveData === true || /(^|-)2g$/.test(conn?.effectiveType ?? "");
}

/** The rule that renders page ahead at once, allowed by the page's CSP as
 *  its own rules are (their nonce); none without them. */
function renderAhead(doc: Document, page: string): HTMLScriptElement | undefined {
  const own = doc.getElementById(RULES);
  if (!(own instanceof HTMLScriptElement) || !page) return undefined;
  const rule = doc.createElement("script");
  rule.type = "speculationrules";
  rule.nonce = own.nonce ?? "";
  rule.textContent = JSON.stringify({ prerender: [{ source: "list", urls: [page], eagerness: "immediate" }] });
  return rule;
}

/** Puts the listed links, and the rule that renders the page they lead to
 *  ahead, in the head once the page has loaded and the browser is idle;
 *  resolves with how many links went (0 when held back). */
export function prefetchNext(doc: Document = document, win: Window = window): Promise<number> {
  const list = doc.getElementById(NEXT_ASSETS);
  if (!(list instanceof HTMLTemplateElement)) return Promise.resolve(0);
  list.remove();
  if (holdBack(win.navigator)) return Promise.resolve(0);
  const links = Array.from(list.content.querySelectorAll("link"));
  const rule = renderAhead(doc, list.dataset.page ?? "");
  return new Promise((done) => {
    const go = () => {
      doc.head.append(...links, ...(rule ? [rule] : []));
      done(links.length);
    };
    const idle = () => {
      if (typeof win.requestIdleCallback === "function") win.requestIdleCallback(go, { timeout: 5000 });
      else win.setTimeout(go, 1000);
    };
    const loaded = () => {
      if (doc.readyState === "complete") idle();
      else win.addEventListener("load", idle, { once: true });
    };
    // A page rendered ahead of a tap waits until it is shown: nobody reads
    // it before, and a move rendered meanwhile would start at the tap, with
    // the order page's first paint.
    if ((doc as Document & { prerendering?: boolean }).prerendering) doc.addEventListener("prerenderingchange", loaded, { once: true });
    else loaded();
  });
}
