// 'Показать ещё' on the order list: without JavaScript the link opens the
// list with one page more of the history, landing on the first card it
// adds. With it, the same page is fetched and only the cards it adds are
// appended in place, with the count and the next link taken from it; the
// address becomes that page's, so Back and a reload show the same list. If
// anything fails, the browser follows the link as it would without script.
//
// This module starts itself (a module script of its own on /orders), so
// the mount loop needs no entry for it.

/** The cards of the history in doc, keyed "kind/id". */
function cards(doc: ParentNode): HTMLElement[] {
  return Array.from(doc.querySelectorAll<HTMLElement>("#history li.oc"));
}

const key = (li: HTMLElement) => `${li.dataset.kind}/${li.dataset.id}`;

/** Moves the cards of next that the page lacks into it, takes next's count
 *  and next link, and answers the first card added (null when none was). */
export function appendPage(page: Document, next: Document): HTMLElement | null {
  const list = page.querySelector<HTMLElement>("#history ul.grid");
  const link = page.querySelector<HTMLAnchorElement>("#history a[data-more]");
  if (!list || !link) throw new Error("the history has no list or no link");
  const have = new Set(cards(page).map(key));
  let first: HTMLElement | null = null;
  for (const li of cards(next)) {
    if (have.has(key(li))) continue;
    const card = page.importNode(li, true);
    list.append(card);
    first ??= card;
  }
  const shown = page.querySelector("#history [data-shown]");
  const nextShown = next.querySelector("#history [data-shown]");
  if (shown && nextShown) shown.textContent = nextShown.textContent;
  const nextLink = next.querySelector<HTMLAnchorElement>("#history a[data-more]");
  if (nextLink) link.href = nextLink.getAttribute("href") ?? "";
  else link.closest("p")?.remove();
  return first;
}

/** Fetches the page the link names; undefined when it is not the list. */
async function fetchPage(url: string): Promise<Document | undefined> {
  const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (!res.ok || res.redirected) return undefined;
  const doc = new DOMParser().parseFromString(await res.text(), "text/html");
  return doc.querySelector("#history") ? doc : undefined;
}

export default function enhanceMore(el: HTMLElement): void {
  if (!(el instanceof HTMLAnchorElement)) throw new Error("data-more needs an <a>");
  let busy = false;
  el.addEventListener("click", (event) => {
    // A new tab or window opens the link itself.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    el.setAttribute("aria-busy", "true");
    const url = el.href;
    void fetchPage(url)
      .then((next) => {
        if (!next) throw new Error("the next page did not come");
        const first = appendPage(document, next);
        history.replaceState(history.state, "", url.replace(/#.*$/, ""));
        // The customer reads on from the first card added.
        first?.querySelector<HTMLElement>("h3 a")?.focus();
      })
      .catch((err: unknown) => {
        console.warn("[more] the list is opened as a page", err);
        location.assign(url);
      })
      .finally(() => {
        busy = false;
        el.removeAttribute("aria-busy");
      });
  });
}

/** Enhances every 'Показать ещё' under root, once each. */
export function start(root: ParentNode = document): void {
  root.querySelectorAll<HTMLElement>("a[data-more]").forEach((el) => {
    if (el.dataset.enhanceState) return;
    enhanceMore(el);
    el.dataset.enhanceState = "done";
  });
}

start();
