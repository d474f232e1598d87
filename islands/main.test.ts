import { act } from "@testing-library/react";
import { createElement, useLayoutEffect, useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mountAll } from "./main";
import { linkManifest, registerWorker } from "./webapp";
import { afterFirstPaint, FILES_WAIT_MS, filesArrived, idle, MOUNT_WAIT_MS, nextTask, SUBMIT_WAIT_MS } from "./when";

function Hello(props: { name: string }) {
  return createElement("p", { className: "hello" }, `Привет, ${props.name}`);
}
function Broken(): never {
  throw new Error("render failed");
}

function Fragile() {
  const [broken, setBroken] = useState(false);
  if (broken) throw new Error("render failed later");
  return createElement("button", { type: "button", onClick: () => setBroken(true) }, "Сломать");
}

const islands = {
  hello: async () => ({ default: Hello }),
  fragile: async () => ({ default: Fragile }),
  broken: async () => ({ default: Broken }),
  missing: () => Promise.reject(new Error("chunk failed to load")),
};

const FALLBACK = `<form data-island-fallback action="/x" method="post"><button>Отправить</button></form>`;

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  // React reports caught render errors on console.error too.
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

// As in a browser, outside act(): the mount renders in a transition and
// resolves once React has committed it, which act() would hold back until
// its own callback ended; and act() would rethrow the render error that the
// mount loop has already handled.
async function run() {
  await mountAll(document, islands, {});
}

describe("mount loop", () => {
  it("mounts an island with props from the script named by data-props", async () => {
    document.body.innerHTML = `
      <div id="i" data-island="hello" data-props="hello-props">${FALLBACK}</div>
      <script id="hello-props" type="application/json">{"name":"Мир"}</script>`;
    await run();
    const el = document.getElementById("i")!;
    expect(el.querySelector("[data-island-root] .hello")?.textContent).toBe("Привет, Мир");
    expect(el.dataset.islandState).toBe("mounted");
    expect(el.querySelector("form")!.hidden).toBe(true);
    expect(warn).not.toHaveBeenCalled();
    // The page's own timing names when each island could be used.
    expect(performance.getEntriesByName("island-mounted:hello")).toHaveLength(1);
  });

  it("reads props from the next sibling JSON script and renders into a designated child", async () => {
    document.body.innerHTML = `
      <div id="i" data-island="hello"><p>сервер</p><div id="slot" data-island-root></div></div>
      <script type="application/json">{"name":"сосед"}</script>`;
    await run();
    expect(document.getElementById("slot")!.textContent).toBe("Привет, сосед");
    expect(document.getElementById("i")!.querySelectorAll("[data-island-root]")).toHaveLength(1);
  });

  it("mounts each island only once", async () => {
    document.body.innerHTML = `<div id="i" data-island="hello"></div><script type="application/json">{"name":"x"}</script>`;
    await run();
    await run();
    expect(document.querySelectorAll(".hello")).toHaveLength(1);
  });

  it.each([
    ["broken props JSON", `<div id="i" data-island="hello" data-props="p">${FALLBACK}</div><script id="p" type="application/json">{"name":</script>`],
    ["a missing props element", `<div id="i" data-island="hello" data-props="nope">${FALLBACK}</div>`],
    ["props that are not an object", `<div id="i" data-island="hello">${FALLBACK}</div><script type="application/json">[1]</script>`],
    ["an unknown island", `<div id="i" data-island="nope">${FALLBACK}</div>`],
    ["a failed import", `<div id="i" data-island="missing">${FALLBACK}</div>`],
    ["a render error", `<div id="i" data-island="broken">${FALLBACK}</div>`],
  ])("leaves the fallback untouched on %s", async (_, html) => {
    document.body.innerHTML = html;
    const el = document.getElementById("i")!;
    const before = el.innerHTML;
    await run();
    expect(el.innerHTML).toBe(before);
    expect(el.querySelector("form")!.hidden).toBe(false);
    expect(el.dataset.islandState).toBe("failed");
    expect(warn).toHaveBeenCalledOnce();
  });

  it("brings the fallback back when the island crashes later", async () => {
    document.body.innerHTML = `<div id="i" data-island="fragile">${FALLBACK}</div>`;
    await run();
    const el = document.getElementById("i")!;
    expect(el.querySelector("form")!.hidden).toBe(true);
    await act(async () => {
      el.querySelector<HTMLButtonElement>("[data-island-root] button")!.click();
    });
    expect(el.querySelector("form")!.hidden).toBe(false);
    expect(el.querySelector("[data-island-root] button")).toBeNull();
    expect(el.dataset.islandState).toBe("failed");
    expect(warn).toHaveBeenCalledOnce();
  });

  it("applies enhancements lazily and survives a failing one", async () => {
    document.body.innerHTML = `<input id="a" data-enhance="upper"><input id="b" data-enhance="nope">`;
    const upper = vi.fn((el: HTMLElement) => ((el as HTMLInputElement).value = "ok"));
    const loader = vi.fn(async () => ({ default: upper }));
    await mountAll(document, {}, { upper: loader });
    expect((document.getElementById("a") as HTMLInputElement).value).toBe("ok");
    expect(loader).toHaveBeenCalledOnce();
    expect(warn).toHaveBeenCalledOnce();
  });

  it("starts an island once the page is ready for it, an enhancement at once", async () => {
    document.body.innerHTML = `
      <div id="i" data-island="hello">${FALLBACK}</div>
      <script type="application/json">{"name":"Мир"}</script>
      <input id="a" data-enhance="upper">`;
    let go!: () => void;
    const quiet = new Promise<void>((done) => (go = done));
    const hello = vi.fn(islands.hello);
    const upper = vi.fn((el: HTMLElement) => ((el as HTMLInputElement).value = "ok"));
    const ready = vi.fn(() => quiet);
    const all = mountAll(document, { hello }, { upper: async () => ({ default: upper }) }, ready);
    const el = document.getElementById("i")!;
    await vi.waitFor(() => expect((document.getElementById("a") as HTMLInputElement).value).toBe("ok"));
    expect(el.dataset.islandState).toBe("loading");
    expect(hello).not.toHaveBeenCalled();
    // A second pass meanwhile (more content under root) does not start it twice.
    void mountAll(document, { hello }, {}, ready);
    go();
    await all;
    expect(el.querySelector("[data-island-root] .hello")?.textContent).toBe("Привет, Мир");
    expect(el.dataset.islandState).toBe("mounted");
    expect(hello).toHaveBeenCalledOnce();
    expect(ready).toHaveBeenCalledOnce();
  });

  it("waits once for all the islands that mount now, and not at all for the rest", async () => {
    document.body.innerHTML = `
      <div id="i" data-island="hello">${FALLBACK}</div><script type="application/json">{"name":"Мир"}</script>
      <div id="j" data-island="hello">${FALLBACK}</div><script type="application/json">{"name":"всем"}</script>`;
    const ready = vi.fn(async () => {});
    await mountAll(document, islands, {}, ready);
    expect(document.getElementById("j")!.dataset.islandState).toBe("mounted");
    expect(ready).toHaveBeenCalledOnce();

    // The sign-in form: its code dialog waits for the form, its phone field
    // is an enhancement; nothing waits to mount now.
    document.body.innerHTML = `
      <form id="f"><input data-enhance="upper"></form>
      <div data-island="hello" data-mount-on-submit="#f">${FALLBACK}</div>`;
    const later = vi.fn(async () => {});
    await mountAll(document, islands, { upper: async () => ({ default: () => {} }) }, later);
    expect(later).not.toHaveBeenCalled();
  });

  it("mounts one island after another", async () => {
    document.body.innerHTML = `
      <div id="i" data-island="first">${FALLBACK}</div><script type="application/json">{"name":"раз"}</script>
      <div id="j" data-island="second">${FALLBACK}</div><script type="application/json">{"name":"два"}</script>`;
    const order: string[] = [];
    const first = vi.fn(async () => (order.push("first loaded"), { default: Hello }));
    const second = vi.fn(async () => {
      order.push(`second loaded, first ${document.getElementById("i")!.dataset.islandState}`);
      return { default: Hello };
    });
    await mountAll(document, { first, second }, {});
    expect(order).toEqual(["first loaded", "second loaded, first mounted"]);
    expect(document.getElementById("j")!.querySelector(".hello")?.textContent).toBe("Привет, два");
  });

  it("loads no enhancement the page does not use", async () => {
    document.body.innerHTML = `<p>нет полей</p>`;
    const loader = vi.fn();
    await mountAll(document, {}, { phone: loader });
    expect(loader).not.toHaveBeenCalled();
  });
});

describe("never held by an island", () => {
  // A file that never comes: the request is neither answered nor failed,
  // as on a lossy mobile link.
  const stalled = () => new Promise<never>(() => {});

  it("gives up an island that has not mounted in its time; the server's version stays whole", async () => {
    vi.useFakeTimers();
    try {
      document.body.innerHTML = `<div id="i" data-island="stalled">${FALLBACK}</div>`;
      const all = mountAll(document, { stalled }, {}, async () => {});
      const el = document.getElementById("i")!;
      await vi.advanceTimersByTimeAsync(MOUNT_WAIT_MS - 100);
      expect(el.dataset.islandState).toBe("loading");
      await vi.advanceTimersByTimeAsync(200);
      await all;
      expect(el.dataset.islandState).toBe("failed");
      expect(el.querySelector("form")!.hidden).toBe(false);
      expect(el.querySelector("[data-island-root]")).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("leaves the page to a customer who started using the server's version before the island came", async () => {
    document.body.innerHTML = `<div id="i" data-island="later">${FALLBACK}</div><script type="application/json">{"name":"Мир"}</script>`;
    let arrive!: () => void;
    const later = () => new Promise<{ default: typeof Hello }>((done) => (arrive = () => done({ default: Hello })));
    const all = mountAll(document, { later }, {}, async () => {});
    const el = document.getElementById("i")!;
    await vi.waitFor(() => expect(arrive).toBeTypeOf("function"));
    el.querySelector("button")!.dispatchEvent(new Event("pointerdown", { bubbles: true }));
    arrive();
    await all;
    expect(el.dataset.islandState).toBe("kept");
    expect(el.querySelector("form")!.hidden).toBe(false);
    expect(el.querySelector(".hello")).toBeNull();
  });

  it("throws away an island's render when it is given up before its commit", async () => {
    document.body.innerHTML = `<div id="i">${FALLBACK}</div>`;
    const el = document.getElementById("i")!;
    const { mount } = await import("./react-mount");
    const ctl = new AbortController();
    const mounting = mount(el, Hello, { name: "Мир" }, () => {}, ctl.signal);
    ctl.abort(new Error("given up")); // React renders in a transition: not committed yet
    await expect(mounting).rejects.toThrow("given up");
    await new Promise((r) => setTimeout(r, 0));
    expect(el.querySelector("form")!.hidden).toBe(false);
    expect(el.querySelector("[data-island-root]")).toBeNull();
    expect(el.querySelector(".hello")).toBeNull();
  });

  it("sends a held submit to the server when the island is not there soon after the tap", async () => {
    document.body.innerHTML = `
      <form id="f" action="/login" method="post"><input name="phone"><button>Получить код</button></form>
      <div id="i" data-island="stalled" data-mount-on-submit="#f"></div>`;
    await mountAll(document, { stalled }, {});
    const form = document.getElementById("f") as HTMLFormElement;
    const held: boolean[] = [];
    const at: number[] = [];
    form.addEventListener("submit", (e) => {
      held.push(e.defaultPrevented);
      at.push(performance.now());
      e.preventDefault(); // stands in for the browser's own sending
    });
    const tap = performance.now();
    form.requestSubmit(form.querySelector("button"));
    await vi.waitFor(() => expect(held).toEqual([true, false]), { timeout: SUBMIT_WAIT_MS + 2000 });
    expect(at[1] - tap).toBeGreaterThanOrEqual(SUBMIT_WAIT_MS - 50);
    expect(document.getElementById("i")!.dataset.islandState).toBe("failed");
  });
});

describe("an island mounted when its form is sent", () => {
  // Listens to the form as the sms-code island does, in the commit that
  // mounts it, and counts what reaches it.
  let got: string[] = [];
  function Taker(props: { form: string }) {
    useLayoutEffect(() => {
      const form = document.querySelector<HTMLFormElement>(props.form)!;
      const on = (e: Event) => {
        e.preventDefault();
        got.push((e as SubmitEvent).submitter?.textContent ?? "");
      };
      form.addEventListener("submit", on);
      return () => form.removeEventListener("submit", on);
    }, [props.form]);
    return createElement("p", { className: "taker" }, "диалог");
  }
  let loads = 0;
  const lazy = {
    taker: async () => {
      loads++;
      return { default: Taker };
    },
    missing: () => Promise.reject(new Error("chunk failed to load")),
  };
  const page = (island: string) => `
    <form id="f" action="/login" method="post"><input name="phone"><button>Получить код</button></form>
    <div id="i" data-island="${island}" data-mount-on-submit="#f"></div>
    <script type="application/json">{"form":"#f"}</script>`;
  beforeEach(() => {
    got = [];
    loads = 0;
  });

  it("runs nothing before the form is sent, then hands it the submit that brought it", async () => {
    document.body.innerHTML = page("taker");
    await mountAll(document, lazy, {});
    const el = document.getElementById("i")!;
    expect(el.dataset.islandState).toBe("waiting");
    expect(loads).toBe(0);
    expect(el.querySelector(".taker")).toBeNull();

    const form = document.getElementById("f") as HTMLFormElement;
    form.requestSubmit(form.querySelector("button"));
    await vi.waitFor(() => expect(el.dataset.islandState).toBe("mounted"));
    expect(el.querySelector(".taker")?.textContent).toBe("диалог");
    expect(got).toEqual(["Получить код"]); // the held submit, with its button
    form.requestSubmit();
    expect(got).toHaveLength(2); // later ones go straight to the island
    expect(loads).toBe(1);
  });

  it("sends a double tap once while the island comes", async () => {
    document.body.innerHTML = page("taker");
    await mountAll(document, lazy, {});
    const form = document.getElementById("f") as HTMLFormElement;
    const seen: Event[] = []; // each submit, to read once every listener has had it
    form.addEventListener("submit", (e) => seen.push(e));
    form.requestSubmit();
    form.requestSubmit();
    await vi.waitFor(() => expect(document.getElementById("i")!.dataset.islandState).toBe("mounted"));
    await vi.waitFor(() => expect(got).toHaveLength(1));
    expect(loads).toBe(1);
    // Two taps and the one handed on; the browser sent none of them itself.
    expect(seen.map((e) => e.defaultPrevented)).toEqual([true, true, true]);
  });

  it("lets the form go to the server when the island cannot mount", async () => {
    document.body.innerHTML = page("missing");
    await mountAll(document, lazy, {});
    const form = document.getElementById("f") as HTMLFormElement;
    // Stands in for the browser's own sending: was the submit held by the
    // time it got here?
    const held: boolean[] = [];
    form.addEventListener("submit", (e) => {
      held.push(e.defaultPrevented);
      e.preventDefault();
    });
    form.requestSubmit();
    const el = document.getElementById("i")!;
    await vi.waitFor(() => expect(el.dataset.islandState).toBe("failed"));
    await vi.waitFor(() => expect(held).toEqual([true, false])); // held while loading, then sent as it was
  });
});

describe("the offline worker", () => {
  function fakes(worker: string | undefined, readyState: DocumentReadyState) {
    const register = vi.fn(() => Promise.resolve());
    const listeners: Record<string, () => void> = {};
    const doc = { documentElement: { dataset: worker ? { worker } : {} }, readyState } as unknown as Document;
    const win = {
      navigator: { serviceWorker: { register } },
      addEventListener: (type: string, fn: () => void) => (listeners[type] = fn),
    } as unknown as Window;
    return { register, listeners, doc, win };
  }

  it("is registered for the whole site once the page has loaded", () => {
    const f = fakes("/sw.js", "interactive");
    registerWorker(f.doc, f.win);
    expect(f.register).not.toHaveBeenCalled();
    f.listeners.load();
    expect(f.register).toHaveBeenCalledWith("/sw.js", { scope: "/" });
  });

  it("is registered at once when the page has loaded already", () => {
    const f = fakes("/sw.js", "complete");
    registerWorker(f.doc, f.win);
    expect(f.register).toHaveBeenCalledTimes(1);
  });

  it("is not registered on a page that does not name it, nor service workers looked at", () => {
    const f = fakes(undefined, "complete");
    const looked = vi.fn();
    Object.defineProperty(f.win.navigator, "serviceWorker", { get: () => (looked(), { register: f.register }) });
    registerWorker(f.doc, f.win);
    expect(f.register).not.toHaveBeenCalled();
    expect(looked).not.toHaveBeenCalled();
  });

  it("leaves the page alone without service workers", () => {
    const f = fakes("/sw.js", "complete");
    (f.win.navigator as { serviceWorker?: unknown }).serviceWorker = undefined;
    expect(() => registerWorker(f.doc, f.win)).not.toThrow();
  });
});

describe("the app's manifest", () => {
  /** A window whose idle callbacks the test runs by hand. */
  function idleWindow() {
    const callbacks: (() => void)[] = [];
    const win = { requestIdleCallback: (cb: () => void) => callbacks.push(cb) } as unknown as Window;
    return { win, callbacks };
  }
  const manifests = () => Array.from(document.head.querySelectorAll('link[rel="manifest"]'), (l) => l.getAttribute("href"));
  afterEach(() => {
    document.head.innerHTML = "";
    delete document.documentElement.dataset.manifest;
  });

  it("is linked once the browser is idle, when the page names it", async () => {
    document.documentElement.dataset.manifest = "/manifest.webmanifest";
    const { win, callbacks } = idleWindow();
    const linked = linkManifest(document, win);
    expect(manifests()).toEqual([]);
    expect(callbacks).toHaveLength(1);
    callbacks[0]();
    await linked;
    expect(manifests()).toEqual(["/manifest.webmanifest"]);
  });

  it("is linked once, however often it is asked for", async () => {
    document.documentElement.dataset.manifest = "/manifest.webmanifest";
    const { win, callbacks } = idleWindow();
    const asked = [linkManifest(document, win), linkManifest(document, win)];
    callbacks.forEach((cb) => cb());
    await Promise.all(asked);
    await linkManifest(document, win);
    expect(manifests()).toEqual(["/manifest.webmanifest"]);
  });

  it("is not linked on a page that does not name it (sign-in pages, pages that link it themselves)", async () => {
    const { win, callbacks } = idleWindow();
    await linkManifest(document, win);
    expect(callbacks).toEqual([]);
    expect(manifests()).toEqual([]);
  });

  it("is linked after the current task where the browser has no idle callbacks", async () => {
    document.documentElement.dataset.manifest = "/manifest.webmanifest";
    const tasks: (() => void)[] = [];
    const linked = linkManifest(document, { setTimeout: (cb: () => void) => tasks.push(cb) } as unknown as Window);
    expect(manifests()).toEqual([]);
    tasks[0]();
    await linked;
    expect(manifests()).toEqual(["/manifest.webmanifest"]);
  });
});

describe("after the first paint", () => {
  /** A window whose paints the test reports by hand. */
  function painting() {
    let report: ((list: { getEntriesByName(name: string): unknown[] }) => void) | null = null;
    const disconnect = vi.fn();
    class Observer {
      static supportedEntryTypes = ["paint", "resource"];
      constructor(cb: typeof report) {
        report = cb;
      }
      observe(opts: { type: string; buffered: boolean }) {
        expect(opts).toEqual({ type: "paint", buffered: true });
      }
      disconnect = disconnect;
    }
    const win = { PerformanceObserver: Observer } as unknown as Window & typeof globalThis;
    const paint = (...names: string[]) => report!({ getEntriesByName: (n) => (names.includes(n) ? [{ name: n }] : []) });
    return { win, paint, disconnect };
  }

  it("goes on only once the first contentful paint is reported", async () => {
    const { win, paint, disconnect } = painting();
    let painted = false;
    const done = afterFirstPaint(win).then(() => (painted = true));
    await Promise.resolve();
    expect(painted).toBe(false);
    paint("first-paint");
    await Promise.resolve();
    expect(painted).toBe(false);
    paint("first-paint", "first-contentful-paint");
    await done;
    expect(painted).toBe(true);
    expect(disconnect).toHaveBeenCalledOnce();
  });

  it("goes on at once in a page rendered ahead of a tap", async () => {
    const { win, disconnect } = painting();
    (win as unknown as { document: { prerendering: boolean } }).document = { prerendering: true };
    let painted = false;
    const done = afterFirstPaint(win).then(() => (painted = true));
    await done;
    expect(painted).toBe(true);
    expect(disconnect).not.toHaveBeenCalled();
  });

  it("goes on after the next frame where paints are not reported", async () => {
    const frames: (() => void)[] = [];
    const tasks: (() => void)[] = [];
    const win = {
      requestAnimationFrame: (cb: () => void) => frames.push(cb),
      setTimeout: (cb: () => void) => tasks.push(cb),
    } as unknown as Window & typeof globalThis;
    let painted = false;
    const done = afterFirstPaint(win).then(() => (painted = true));
    expect(frames).toHaveLength(1);
    frames[0]();
    await Promise.resolve();
    expect(painted).toBe(false);
    tasks[0]();
    await done;
    expect(painted).toBe(true);
  });

  it("puts the server's list of island files in the head, all at once, once", async () => {
    document.head.innerHTML = `<template id="island-assets"><link rel="modulepreload" href="/static/dist/assets/react.js" fetchpriority="low"><link rel="preload" as="style" href="/static/dist/assets/cal.css"></template>`;
    const hrefs = () => Array.from(document.head.querySelectorAll(":scope > link"), (l) => l.getAttribute("href"));
    expect(hrefs()).toEqual([]);
    const all = filesArrived(document);
    expect(hrefs()).toEqual(["/static/dist/assets/react.js", "/static/dist/assets/cal.css"]);
    expect(document.head.querySelector("link")!.getAttribute("fetchpriority")).toBe("low");
    expect(document.getElementById("island-assets")).toBeNull();
    document.head.querySelectorAll("link").forEach((l) => l.dispatchEvent(new Event("load")));
    await all;
    await filesArrived(document);
    expect(hrefs()).toHaveLength(2);
    document.head.innerHTML = "";
  });

  it("resolves once every file it asked for has arrived or failed", async () => {
    document.head.innerHTML = `<template id="island-assets"><link rel="modulepreload" href="/static/dist/assets/react.js"><link rel="preload" as="style" href="/static/dist/assets/cal.css"><link rel="modulepreload" href="/static/dist/assets/gone.js"></template>`;
    const tpl = document.getElementById("island-assets") as HTMLTemplateElement;
    const [react, css, gone] = Array.from(tpl.content.querySelectorAll("link"));
    let arrived = false;
    const all = filesArrived(document).then(() => (arrived = true));
    react.dispatchEvent(new Event("load"));
    gone.dispatchEvent(new Event("error"));
    await new Promise((r) => setTimeout(r, 0));
    expect(arrived).toBe(false);
    css.dispatchEvent(new Event("load"));
    await all;
    expect(arrived).toBe(true);
    document.head.innerHTML = "";
  });

  it("does not wait past its deadline for a file that never comes", async () => {
    vi.useFakeTimers();
    try {
      document.head.innerHTML = `<template id="island-assets"><link rel="modulepreload" href="/static/dist/assets/react.js"></template>`;
      let arrived = false;
      const all = filesArrived(document).then(() => (arrived = true));
      await vi.advanceTimersByTimeAsync(FILES_WAIT_MS - 100);
      expect(arrived).toBe(false);
      await vi.advanceTimersByTimeAsync(200);
      await all;
      expect(arrived).toBe(true);
    } finally {
      vi.useRealTimers();
      document.head.innerHTML = "";
    }
  });

  it("does not wait for a file the browser does not fetch (no modulepreload)", async () => {
    document.head.innerHTML = `<template id="island-assets"><link rel="modulepreload" href="/static/dist/assets/react.js"><link rel="preload" as="style" href="/static/dist/assets/cal.css"></template>`;
    const supports = vi.fn((token: string) => token === "preload");
    const make = document.createElement.bind(document);
    vi.spyOn(document, "createElement").mockImplementation((tag: string) => {
      const el = make(tag);
      Object.defineProperty(el, "relList", { value: { supports } });
      return el;
    });
    const css = document.querySelector("template")!.content.querySelector('link[rel="preload"]')!;
    const all = filesArrived(document);
    css.dispatchEvent(new Event("load"));
    await all;
    expect(supports).toHaveBeenCalledWith("modulepreload");
    document.head.innerHTML = "";
  });

  it("resolves at once on a page without islands, and leaves it as it is", async () => {
    document.head.innerHTML = "<title>x</title>";
    await filesArrived(document);
    expect(document.head.innerHTML).toBe("<title>x</title>");
    document.head.innerHTML = "";
  });
});

describe("the next task", () => {
  it("comes only once the browser runs a task after this one", async () => {
    const tasks: (() => void)[] = [];
    let done = false;
    const next = nextTask({ setTimeout: (cb: () => void) => tasks.push(cb) } as unknown as Window).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    expect(tasks).toHaveLength(1);
    tasks[0]();
    await next;
    expect(done).toBe(true);
  });
});

describe("idle", () => {
  it("goes on once the browser is idle, waiting a second at most", async () => {
    const callbacks: [() => void, IdleRequestOptions | undefined][] = [];
    const win = { requestIdleCallback: (cb: () => void, opts?: IdleRequestOptions) => callbacks.push([cb, opts]) } as unknown as Window;
    let done = false;
    const waited = idle(win).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    expect(callbacks[0][1]).toEqual({ timeout: 1000 });
    callbacks[0][0]();
    await waited;
    expect(done).toBe(true);
  });

  it("goes on after the current task where the browser has no idle callbacks", async () => {
    const tasks: (() => void)[] = [];
    let done = false;
    const waited = idle({ setTimeout: (cb: () => void) => tasks.push(cb) } as unknown as Window).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    tasks[0]();
    await waited;
    expect(done).toBe(true);
  });
});
