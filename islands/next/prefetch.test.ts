import { afterEach, describe, expect, it, vi } from "vitest";
import { holdBack, NEXT_ASSETS, prefetchNext, RULES } from "./prefetch";

function list(...hrefs: string[]): HTMLTemplateElement {
  const t = document.createElement("template");
  t.id = NEXT_ASSETS;
  t.innerHTML = hrefs.map((h) => `<link rel="prefetch" href="${h}" fetchpriority="low">`).join("");
  document.head.append(t);
  return t;
}

/** The page's own speculation rules, with the page's nonce. */
function ownRules(nonce: string): void {
  const s = document.createElement("script");
  s.id = RULES;
  s.type = "speculationrules";
  s.nonce = nonce;
  s.textContent = "{}";
  document.head.append(s);
}

const moveRules = () => Array.from(document.querySelectorAll<HTMLScriptElement>('head > script[type="speculationrules"]')).filter((s) => s.id !== RULES);

function fakeWindow(connection?: object): Window {
  const idle: (() => void)[] = [];
  return {
    navigator: { connection } as unknown as Navigator,
    requestIdleCallback: (f: () => void) => idle.push(f),
    addEventListener: () => undefined,
    setTimeout: (f: () => void) => idle.push(f),
    idle,
  } as unknown as Window;
}

afterEach(() => {
  document.head.innerHTML = "";
  vi.restoreAllMocks();
});

describe("prefetchNext", () => {
  it("puts the listed files in the head only once the browser is idle", async () => {
    list("/static/dist/assets/calendar-x.js", "/static/dist/assets/calendar-x.css");
    const win = fakeWindow();
    const went = prefetchNext(document, win);
    expect(document.querySelectorAll('head > link[rel="prefetch"]')).toHaveLength(0);
    (win as unknown as { idle: (() => void)[] }).idle.forEach((f) => f());
    expect(await went).toBe(2);
    const links = Array.from(document.querySelectorAll<HTMLLinkElement>('head > link[rel="prefetch"]'));
    expect(links.map((l) => l.getAttribute("href"))).toEqual(["/static/dist/assets/calendar-x.js", "/static/dist/assets/calendar-x.css"]);
    expect(links.every((l) => l.getAttribute("fetchpriority") === "low")).toBe(true);
    expect(document.getElementById(NEXT_ASSETS)).toBeNull();
  });

  it("renders the move page ahead once the browser is idle, with the page's nonce", async () => {
    ownRules("n0nce");
    list("/static/dist/assets/calendar-x.js").dataset.page = "/orders/glk/500001/transfer";
    const win = fakeWindow();
    const went = prefetchNext(document, win);
    expect(moveRules()).toHaveLength(0);
    (win as unknown as { idle: (() => void)[] }).idle.forEach((f) => f());
    await went;
    const [rule] = moveRules();
    expect(rule.nonce).toBe("n0nce");
    expect(JSON.parse(rule.textContent!)).toEqual({ prerender: [{ source: "list", urls: ["/orders/glk/500001/transfer"], eagerness: "immediate" }] });
  });

  it("waits, in a page rendered ahead of a tap, until the page is shown", async () => {
    ownRules("n");
    list("/static/dist/assets/calendar-x.js").dataset.page = "/orders/glk/500001/transfer";
    Object.defineProperty(document, "prerendering", { value: true, configurable: true });
    try {
      const win = fakeWindow();
      const went = prefetchNext(document, win);
      const idle = (win as unknown as { idle: (() => void)[] }).idle;
      expect(idle).toHaveLength(0);
      Object.defineProperty(document, "prerendering", { value: false, configurable: true });
      document.dispatchEvent(new Event("prerenderingchange"));
      expect(idle).toHaveLength(1);
      idle.forEach((f) => f());
      expect(await went).toBe(1);
      expect(moveRules()).toHaveLength(1);
    } finally {
      delete (document as { prerendering?: boolean }).prerendering;
    }
  });

  it("fetches nothing when the customer saves data or is on 2G", async () => {
    for (const conn of [{ saveData: true }, { effectiveType: "2g" }, { effectiveType: "slow-2g" }]) {
      ownRules("n");
      list("/static/dist/assets/calendar-x.js").dataset.page = "/orders/glk/500001/transfer";
      expect(await prefetchNext(document, fakeWindow(conn))).toBe(0);
      expect(document.querySelectorAll('link[rel="prefetch"]')).toHaveLength(0);
      expect(moveRules()).toHaveLength(0);
    }
  });

  it("does nothing on a page that leads to no move", async () => {
    expect(await prefetchNext(document, fakeWindow())).toBe(0);
  });
});

describe("holdBack", () => {
  it("lets a 3G or 4G link fetch ahead", () => {
    expect(holdBack({ connection: { effectiveType: "4g" } } as unknown as Navigator)).toBe(false);
    expect(holdBack({ connection: { effectiveType: "3g", saveData: false } } as unknown as Navigator)).toBe(false);
    expect(holdBack({} as Navigator)).toBe(false);
  });
});
