import { afterEach, describe, expect, it, vi } from "vitest";
import { appendPage, start } from "./more";

function list(ids: number[], shown: string, next: string | null): string {
  const items = ids
    .map((id) => `<li class="card oc" data-kind="glk" data-id="${id}"><h3><a href="/orders/glk/${id}">Заказ № ${id}</a></h3></li>`)
    .join("");
  const link = next ? `<p class="actions"><a class="btn btn-2" href="${next}" rel="next" data-more>Показать ещё</a></p>` : "";
  return `<main><section id="history"><p class="muted" aria-live="polite" data-shown>${shown}</p><ul class="grid plain">${items}</ul>${link}</section></main>`;
}

const parse = (html: string) => new DOMParser().parseFromString(html, "text/html");
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("'Показать ещё'", () => {
  it("appends only the cards the next page adds, with its count and next link", () => {
    document.body.innerHTML = list(range(1, 20), "Показаны 20 из 45", "/orders?page=2#more-21");
    const first = appendPage(document, parse(list(range(1, 40), "Показаны 40 из 45", "/orders?page=3#more-41")));
    const ids = Array.from(document.querySelectorAll<HTMLElement>("#history li.oc"), (li) => li.dataset.id);
    expect(ids).toEqual(range(1, 40).map(String));
    expect(first?.dataset.id).toBe("21");
    expect(document.querySelector("[data-shown]")?.textContent).toBe("Показаны 40 из 45");
    expect(document.querySelector("a[data-more]")?.getAttribute("href")).toBe("/orders?page=3#more-41");
  });

  it("drops the link on the last page", () => {
    document.body.innerHTML = list(range(1, 40), "Показаны 40 из 45", "/orders?page=3#more-41");
    appendPage(document, parse(list(range(1, 45), "Показаны 45 из 45", null)));
    expect(document.querySelectorAll("#history li.oc")).toHaveLength(45);
    expect(document.querySelector("a[data-more]")).toBeNull();
  });

  it("fetches the page on a click and stays on this one", async () => {
    document.body.innerHTML = list(range(1, 20), "Показаны 20 из 45", "/orders?page=2#more-21");
    const fetch = vi.fn(async (_url: RequestInfo | URL) => new Response(list(range(1, 40), "Показаны 40 из 45", "/orders?page=3#more-41"), { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    start();
    const link = document.querySelector<HTMLAnchorElement>("a[data-more]")!;
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    link.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(document.querySelectorAll("#history li.oc")).toHaveLength(40));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0][0])).toContain("/orders?page=2");
    expect(document.activeElement?.textContent).toBe("Заказ № 21");
  });

  it("leaves a click with a modifier to the browser", () => {
    document.body.innerHTML = list(range(1, 20), "Показаны 20 из 45", "/orders?page=2#more-21");
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    start();
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0, ctrlKey: true });
    document.querySelector("a[data-more]")!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });
});
