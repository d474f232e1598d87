import { describe, expect, it } from "vitest";
import {
  DOC_FRESH_MS,
  MAX_AGE_MS,
  MAX_AHEAD,
  MAX_COPIES,
  MAX_STATIC,
  OFFLINE_PATH,
  OFFLINE_WHY,
  ahead,
  dropped,
  dropsFor,
  expired,
  keepable,
  markOffline,
  mayKeep,
  mayShow,
  offlineNotice,
  sessionOf,
  staticToDrop,
  succeeded,
  toDrop,
  toSweep,
  type Copy,
} from "./rules";

const NOW = new Date(2026, 10, 24, 9, 5).getTime(); // the phone's own time
const HOUR = 60 * 60 * 1000;

describe("what is kept", () => {
  it.each([
    ["/", "page"],
    ["/orders", "page"],
    ["/orders/aqua/300001", "page"],
    ["/orders/GLK/100001", "page"],
    ["/orders/celRoom/210001", "page"],
    ["/orders/aqua/300001/ticket.pdf", "document"],
    ["/orders/hotel/400001/voucher.pdf", "document"],
    // A booking's Wallet passes, kept as its ticket is.
    ["/orders/aqua/300001/tickets.pkpasses", "document"],
    ["/orders/aqua/300005/ticket.pkpass", "document"],
    ["/orders/hotel/400001/voucher.pkpass", "document"],
    ["/orders/glk/100001/lesson.pkpass", "document"],
    ["/orders/GLK/100001/lesson.pkpass", "document"],
  ])("%s is kept as a %s", (path, kind) => {
    expect(keepable(path)).toBe(kind);
  });

  it.each([
    "/login",
    "/login/code",
    "/signup",
    "/offline",
    "/profile/edit",
    "/orders/aqua/300001/cancel",
    "/orders/aqua/300001/refund",
    "/orders/aqua/300001/transfer",
    "/orders/aqua/300001/calendar.ics",
    "/orders/hotel/400001/ticket.pdf", // a hotel has a voucher, not a ticket
    "/orders/aqua/300001/voucher.pdf",
    "/orders/hotel/400001/tickets.pkpasses", // passes by the kind's own names only
    "/orders/aqua/300001/lesson.pkpass",
    "/orders/pavilion/200001/lesson.pkpass",
    "/orders/glk/100001/lesson.pkpasses",
    "/orders/unknown/1",
    "/orders/aqua/",
    "/orders/aqua/../../login",
    "/static/favicon.svg",
    "/ordersx",
  ])("%s is never kept", (path) => {
    expect(keepable(path)).toBeNull();
  });

  const ok = { path: "/orders", status: 200, redirected: false, type: "basic", owner: "tok" };
  it("keeps a signed-in customer's page as it came", () => {
    expect(mayKeep(ok)).toBe(true);
  });
  it.each([
    ["an anonymous answer", { owner: null }],
    ["an answer for nobody", { owner: "none" }],
    ["an error page", { status: 503 }],
    ["a page the provider refused", { status: 401 }],
    ["an answer reached by a redirect", { redirected: true }],
    ["an opaque answer", { type: "opaqueredirect" }],
    ["a page that is not kept", { path: "/profile/edit" }],
  ])("never keeps %s", (_, change) => {
    expect(mayKeep({ ...ok, ...change })).toBe(false);
  });
});

describe("a page whose frame went first", () => {
  const framedPage = (status: string) =>
    `<!DOCTYPE html><html><head><style nonce="n">x</style></head><body><p>Загружаем…</p>` +
    `<style nonce="n">#lk-loading{display:none}</style><meta name="lk-status" content="${status}"><main>…</main></body></html>`;
  it("is kept when the page after the frame succeeded", () => {
    expect(succeeded("1", framedPage("200"))).toBe(true);
  });
  it.each(["502", "503", "404", "303"])("is not kept when the page after the frame is %s: a good copy stays", (status) => {
    expect(succeeded("1", framedPage(status))).toBe(false);
  });
  it("is not kept when it never said how the page went (cut off)", () => {
    expect(succeeded("1", "<!DOCTYPE html><html><head></head><body><p>Загружаем…</p>")).toBe(false);
  });
  it("a page without a frame is as its status says", () => {
    expect(succeeded(null, "<main>…</main>")).toBe(true);
  });
});

describe("what an answer says of the session", () => {
  it("a token is the signed-in customer", () => {
    expect(sessionOf(200, "abc")).toEqual({ session: "owner", owner: "abc" });
  });
  it("'none' ends it: signed out, expired, revoked", () => {
    expect(sessionOf(200, "none")).toEqual({ session: "ended" });
  });
  it("401 ends it: the provider refused the token", () => {
    expect(sessionOf(401, "abc")).toEqual({ session: "ended" });
  });
  it("no header changes nothing: the server could not tell", () => {
    expect(sessionOf(503, null)).toEqual({ session: "unknown" });
  });
});

describe("for how long", () => {
  it("a copy is shown for 7 days and not a moment longer", () => {
    expect(expired(NOW - MAX_AGE_MS, NOW)).toBe(false);
    expect(expired(NOW - MAX_AGE_MS - 1, NOW)).toBe(true);
    expect(MAX_AGE_MS).toBe(7 * 24 * HOUR);
  });
  it("a copy is not shown once its sign-in has ended, offline or not", () => {
    const owner = `abc.${(NOW + HOUR) / 1000}`;
    expect(expired(NOW - HOUR, NOW, owner)).toBe(false);
    expect(expired(NOW - HOUR, NOW + HOUR, owner)).toBe(true);
    expect(expired(NOW - HOUR, NOW + 2 * HOUR, "abc")).toBe(false); // an owner without an end: the week alone
    expect(toDrop([{ path: "/", keptAt: NOW - HOUR, owner }], NOW + HOUR, owner)).toEqual(["/"]);
  });
  it("a copy without a time is never shown", () => {
    expect(expired(Number("x"), NOW)).toBe(true);
    expect(expired(NaN, NOW)).toBe(true);
  });
});

describe("whose copies the browser holds now", () => {
  const owner = `abc.${(NOW + HOUR) / 1000}`;
  it("a copy is shown while the cookie names its sign-in", () => {
    expect(mayShow(owner, owner)).toBe(true);
  });
  it("not once the cookie is gone, or names another sign-in", () => {
    expect(mayShow(owner, null)).toBe(false);
    expect(mayShow(owner, "other.1")).toBe(false);
    expect(mayShow(null, null)).toBe(false);
  });
  it("where the worker cannot read cookies, the copy's own end decides", () => {
    expect(mayShow(owner, undefined)).toBe(true);
  });
  it("the sweep deletes every copy once the cookie is gone, documents included", () => {
    const kept: Copy[] = [
      { path: "/orders", keptAt: NOW - HOUR, owner },
      { path: "/orders/aqua/300001/ticket.pdf", keptAt: NOW - HOUR, owner },
    ];
    expect(toSweep(kept, NOW, owner)).toEqual([]);
    expect(toSweep(kept, NOW, null)).toEqual(["/orders", "/orders/aqua/300001/ticket.pdf"]);
  });
  it("and every copy after its sign-in's end, documents included, with or without the cookie", () => {
    const kept: Copy[] = [{ path: "/orders/aqua/300001/ticket.pdf", keptAt: NOW - HOUR, owner }];
    expect(toSweep(kept, NOW + HOUR, owner)).toEqual(["/orders/aqua/300001/ticket.pdf"]);
    expect(toSweep(kept, NOW + HOUR, undefined)).toEqual(["/orders/aqua/300001/ticket.pdf"]);
  });
});

describe("what is dropped to make room", () => {
  const copy = (path: string, ageH: number, owner = "me"): Copy => ({ path, keptAt: NOW - ageH * HOUR, owner });

  it("nothing while there is room", () => {
    expect(toDrop([copy("/", 1), copy("/orders", 2)], NOW, "me", 1)).toEqual([]);
  });
  it("every copy of another sign-in", () => {
    expect(toDrop([copy("/", 1, "old"), copy("/orders", 2)], NOW, "me", 1)).toEqual(["/"]);
  });
  it("every copy older than a week", () => {
    expect(toDrop([copy("/", 7 * 24 + 1), copy("/orders", 2)], NOW, "me")).toEqual(["/"]);
  });
  it("the oldest beyond the bound", () => {
    const many = Array.from({ length: MAX_COPIES }, (_, i) => copy(`/orders/aqua/${i}`, i + 1));
    expect(toDrop(many, NOW, "me", 1)).toEqual([`/orders/aqua/${MAX_COPIES - 1}`]);
    expect(toDrop(many, NOW, "me", 3)).toEqual([39, 38, 37].map((i) => `/orders/aqua/${i}`));
    expect(toDrop(many, NOW, "me", 0)).toEqual([]);
  });
});

describe("documents kept before they are opened", () => {
  const t = "/orders/aqua/300005/ticket.pdf";
  const v = "/orders/hotel/400001/voucher.pdf";
  it("are the ones the server names, once each", () => {
    expect(ahead(`${t} ${v}  ${t}`, [], NOW, "me")).toEqual([t, v]);
  });
  it("take the Wallet passes the server names too", () => {
    const p = "/orders/aqua/300005/ticket.pkpass";
    const l = "/orders/glk/100001/lesson.pkpass";
    expect(ahead(`${t} ${p} ${l}`, [], NOW, "me")).toEqual([t, p, l]);
  });
  it("are documents only, whatever else the header holds", () => {
    expect(ahead(`/logout /orders/aqua/1/cancel https://evil.example/x.pdf ${t}`, [], NOW, "me")).toEqual([t]);
  });
  it("are none without the header", () => {
    expect(ahead(null, [], NOW, "me")).toEqual([]);
  });
  it("are not fetched again within the hour", () => {
    const kept = [{ path: t, keptAt: NOW - DOC_FRESH_MS + 1, owner: "me" }];
    expect(ahead(t, kept, NOW, "me")).toEqual([]);
    expect(ahead(t, [{ ...kept[0], keptAt: NOW - DOC_FRESH_MS }], NOW, "me")).toEqual([t]);
    expect(ahead(t, [{ ...kept[0], owner: "old" }], NOW, "me")).toEqual([t]);
  });
  it("are at most a few from one page", () => {
    const list = Array.from({ length: 30 }, (_, i) => `/orders/aqua/${i}/ticket.pdf`).join(" ");
    expect(ahead(list, [], NOW, "me")).toHaveLength(MAX_AHEAD);
  });
});

describe("what a request drops", () => {
  it("a sign-out drops everything", () => {
    expect(dropsFor("POST", "/logout")).toBe("all");
  });
  it("an action drops the order's copies and the lists that show it", () => {
    const d = dropsFor("POST", "/orders/aqua/300001/cancel");
    expect(d).toEqual(["/", "/orders", "/orders/aqua/300001"]);
    const drops = d as string[];
    for (const p of ["/", "/orders", "/orders/aqua/300001", "/orders/aqua/300001/ticket.pdf"]) expect(dropped(p, drops)).toBe(true);
    for (const p of ["/orders/aqua/300005", "/orders/aqua/3000011", "/orders/aqua/300005/ticket.pdf"]) expect(dropped(p, drops)).toBe(false);
  });
  it("a profile edit drops home, which shows the profile", () => {
    expect(dropsFor("POST", "/profile/edit")).toEqual(["/"]);
    expect(dropped("/orders", ["/"])).toBe(false);
  });
  it("reading drops nothing", () => {
    expect(dropsFor("GET", "/logout")).toBeNull();
    expect(dropsFor("POST", "/login")).toBeNull();
  });
});

describe("static files", () => {
  it("keep at most a bound, the offline page always", () => {
    const paths = [OFFLINE_PATH, ...Array.from({ length: MAX_STATIC + 2 }, (_, i) => `/static/dist/assets/a${i}.js`)];
    expect(staticToDrop(paths)).toEqual(["/static/dist/assets/a0.js", "/static/dist/assets/a1.js", "/static/dist/assets/a2.js"]);
    expect(staticToDrop(paths.slice(0, 5))).toEqual([]);
  });
});

describe("a kept page offline", () => {
  it("names the day and time it was kept, in the phone's time", () => {
    expect(offlineNotice(NOW)).toBe("Нет соединения. Показана сохранённая версия от 24.11.2026 09:05.");
    expect(offlineNotice(new Date(2027, 0, 2, 23, 59).getTime())).toBe("Нет соединения. Показана сохранённая версия от 02.01.2027 23:59.");
  });

  const page =
    `<!DOCTYPE html><html lang="ru"><head><style nonce="N0+/=">:root{}</style></head><body>` +
    `<nav><form method="post" action="/logout"><button>Выйти</button></form></nav>` +
    `<main id="main" class="wrap"><h1>Заказ</h1><div class="actions">` +
    `<a data-action="document" href="/orders/aqua/1/ticket.pdf">Мой билет</a>` +
    `<a data-action="wallet" href="/orders/aqua/1/tickets.pkpasses">Добавить в Wallet</a>` +
    `<a data-action="cancel" href="/orders/aqua/1/cancel">Отменить</a></div></main></body></html>`;

  it("shows the notice at the top of the content and why the buttons are gone", () => {
    const doc = new DOMParser().parseFromString(markOffline(page, NOW), "text/html");
    const main = doc.querySelector("main")!;
    const note = main.firstElementChild!;
    expect(note.getAttribute("role")).toBe("status");
    expect(note.querySelector("p")!.textContent).toBe(offlineNotice(NOW));
    expect(note.textContent).toContain(OFFLINE_WHY);
    expect(doc.documentElement.hasAttribute("data-offline")).toBe(true);
  });

  it("hides every form and action but the document and the Wallet pass, under the page's own nonce", () => {
    const doc = new DOMParser().parseFromString(markOffline(page, NOW), "text/html");
    const styles = doc.querySelectorAll("head style");
    expect(styles).toHaveLength(2);
    expect(styles[1].getAttribute("nonce")).toBe("N0+/=");
    const css = styles[1].textContent!;
    expect(css).toContain("[data-offline] form");
    expect(css).toContain("[data-offline] [data-action]:not([data-action=document])");
    // The selectors match what must go, and not the ticket.
    const hidden = css.slice(0, css.indexOf("{"));
    expect(doc.querySelector(`form[action="/logout"]`)!.matches(hidden)).toBe(true);
    expect(doc.querySelector(`[data-action=cancel]`)!.matches(hidden)).toBe(true);
    expect(doc.querySelector(`[data-action=document]`)!.matches(hidden)).toBe(false);
    expect(doc.querySelector(`[data-action=wallet]`)!.matches(hidden)).toBe(false);
  });

  it("hides the links to documents that were not kept", () => {
    const two = page.replace(
      "</div></main>",
      `<a data-action="document" href="/orders/hotel/4/voucher.pdf">Мой ваучер</a></div></main>`,
    );
    const doc = new DOMParser().parseFromString(markOffline(two, NOW, (p) => p === "/orders/aqua/1/ticket.pdf"), "text/html");
    const css = doc.querySelectorAll("head style")[1].textContent!;
    expect(css).toContain(`[data-offline] a[href="/orders/hotel/4/voucher.pdf"]{display:none!important}`);
    expect(css).toContain(`[data-offline] a[href="/orders/aqua/1/tickets.pkpasses"]{display:none!important}`);
    expect(css).not.toContain(`a[href="/orders/aqua/1/ticket.pdf"]`);
    const kept = new DOMParser().parseFromString(markOffline(two, NOW, (p) => p.endsWith(".pkpasses")), "text/html");
    expect(kept.querySelectorAll("head style")[1].textContent!).not.toContain(`a[href="/orders/aqua/1/tickets.pkpasses"]`);
  });

  it("still shows the notice on a page with no main", () => {
    const out = markOffline("<html><head></head><body><p>x</p></body></html>", NOW);
    expect(out).toMatch(/<body><div class="notice notice-off"/);
  });
});
