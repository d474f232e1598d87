/// <reference lib="webworker" />
// The offline worker, served at /sw.js so that its scope is the whole site.
// Online, pages come from the network and only that answer is shown; a
// copy of a signed-in page the customer opened (home, the order list, an
// order with its gate codes, a ticket or voucher, a Wallet pass) is kept as
// it comes, and the tickets, vouchers and passes of today's and tomorrow's
// orders are fetched ahead when a list names them. Offline, a kept page is shown with the time
// it was kept and no button that could not work; any other page is the
// app's own offline page. What is kept and dropped is decided in rules.ts.
import {
  COPIES_COOKIE,
  FRAMED_HEADER,
  KEEP_HEADER,
  KEPT_AT_HEADER,
  OFFLINE_PATH,
  SESSION_HEADER,
  ahead,
  dropped,
  dropsFor,
  expired,
  keepable,
  markOffline,
  mayKeep,
  mayShow,
  sessionOf,
  staticToDrop,
  succeeded,
  toDrop,
  toSweep,
  type Copy,
  type Kind,
} from "./rules";

const sw = self as unknown as ServiceWorkerGlobalScope;
const COPIES = "lk-copies-v1"; // the customer's pages and documents
const APP = "lk-app-v1"; // static files and the offline page: nobody's

// Cache changes run one after another, so that a drop and a keep never
// interleave (a sign-out's drop is never undone by a keep still running).
let chain: Promise<unknown> = Promise.resolve();
function serial<T>(job: () => Promise<T>): Promise<T> {
  const next = chain.then(job, job);
  chain = next.catch(() => undefined);
  return next;
}

const pathOf = (url: string) => new URL(url).pathname;

async function copies(cache: Cache): Promise<Copy[]> {
  const out: Copy[] = [];
  for (const req of await cache.keys()) {
    const res = await cache.match(req);
    out.push({
      path: pathOf(req.url),
      keptAt: Number(res?.headers.get(KEPT_AT_HEADER)),
      owner: res?.headers.get(SESSION_HEADER) ?? "",
    });
  }
  return out;
}

/** Keeps res as the copy of path for owner, making room first. */
async function keep(path: string, res: Response, owner: string): Promise<void> {
  const body = await res.arrayBuffer();
  const framed = res.headers.get(FRAMED_HEADER);
  if (framed && !succeeded(framed, new TextDecoder().decode(body))) return;
  const headers = new Headers(res.headers);
  headers.delete("Content-Encoding"); // the body is decoded already
  headers.delete("Content-Length");
  headers.set(KEPT_AT_HEADER, String(Date.now()));
  const cache = await caches.open(COPIES);
  const others = (await copies(cache)).filter((c) => c.path !== path);
  await Promise.all(toDrop(others, Date.now(), owner, 1).map((p) => cache.delete(p)));
  await cache.put(path, new Response(body, { status: 200, statusText: res.statusText, headers }));
}

async function dropAll(): Promise<void> {
  await caches.delete(COPIES);
}

/** What an online answer teaches: the session ended (drop everything), or
 *  a copy to keep and the documents to fetch ahead. */
async function learn(res: Response, path: string): Promise<void> {
  if (res.type !== "basic") return; // a redirect: its target comes next
  const v = sessionOf(res.status, res.headers.get(SESSION_HEADER));
  if (v.session === "ended") return dropAll();
  if (v.session !== "owner") return;
  const owner = v.owner;
  if (mayKeep({ path, status: res.status, redirected: res.redirected, type: res.type, owner })) {
    await keep(path, res, owner);
  }
  const list = res.headers.get(KEEP_HEADER);
  if (!list) return;
  for (const doc of ahead(list, await copies(await caches.open(COPIES)), Date.now(), owner)) {
    try {
      const r = await fetch(doc, { credentials: "same-origin" });
      const o = r.headers.get(SESSION_HEADER);
      if (o === owner && mayKeep({ path: doc, status: r.status, redirected: r.redirected, type: r.type, owner: o })) {
        await keep(doc, r, owner);
      }
    } catch {
      return; // the network went: the rest waits for the next visit
    }
  }
}

/** The sign-in the browser's cookie names now: undefined where the worker
 *  cannot read cookies, null when it is gone. */
async function cookieOwner(): Promise<string | null | undefined> {
  const store = (sw as unknown as { cookieStore?: { get(name: string): Promise<{ value: string } | null> } }).cookieStore;
  if (!store) return undefined;
  try {
    return (await store.get(COPIES_COOKIE))?.value ?? null;
  } catch {
    return undefined;
  }
}

/** Deletes the copies expired or of a sign-in the cookie no longer names. */
async function sweep(): Promise<void> {
  const cache = await caches.open(COPIES);
  const gone = toSweep(await copies(cache), Date.now(), await cookieOwner());
  await Promise.all(gone.map((p) => cache.delete(p)));
}

/** The kept copy of path, if it is still young enough to show and its
 *  sign-in is the browser's. */
async function kept(path: string): Promise<Response | undefined> {
  const cache = await caches.open(COPIES);
  const res = await cache.match(path);
  if (!res) return undefined;
  const owner = res.headers.get(SESSION_HEADER);
  if (expired(Number(res.headers.get(KEPT_AT_HEADER)), Date.now(), owner) || !mayShow(owner, await cookieOwner())) {
    await serial(sweep);
    return undefined;
  }
  return res;
}

async function offline(path: string, kind: Kind | null, navigation: boolean): Promise<Response> {
  if (navigation) await serial(sweep); // nothing outlives its sign-in, offline either
  const copy = kind ? await kept(path) : undefined;
  if (copy && kind === "page") {
    const docs = new Set((await (await caches.open(COPIES)).keys()).map((r) => pathOf(r.url)));
    const html = markOffline(await copy.text(), Number(copy.headers.get(KEPT_AT_HEADER)), (p) => docs.has(p));
    return new Response(html, { status: 200, headers: copy.headers });
  }
  if (copy) return copy;
  if (navigation) {
    const page = await caches.match(OFFLINE_PATH, { cacheName: APP });
    if (page) return page;
  }
  return Response.error();
}

/** Network first; a copy only when the network fails. */
async function fromNetwork(e: FetchEvent, path: string, kind: Kind | null): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(e.request);
  } catch {
    return offline(path, kind, e.request.mode === "navigate");
  }
  const copy = res.clone();
  e.waitUntil(serial(() => learn(copy, path)));
  return res;
}

/** Static files: Vite's hashed ones never change, so the copy is enough;
 *  the others are refreshed behind the copy. */
async function fromStatic(e: FetchEvent, path: string): Promise<Response> {
  const cache = await caches.open(APP);
  const refresh = () =>
    fetch(e.request).then(async (res) => {
      if (res.ok && res.type === "basic") {
        const copy = res.clone();
        await serial(async () => {
          await cache.put(e.request, copy);
          const paths = (await cache.keys()).map((r) => pathOf(r.url));
          await Promise.all(staticToDrop(paths).map((p) => cache.delete(p)));
        });
      }
      return res;
    });
  const hit = await cache.match(e.request);
  if (!hit) return refresh();
  if (!path.startsWith("/static/dist/")) e.waitUntil(refresh().catch(() => undefined));
  return hit;
}

sw.addEventListener("install", (e) => {
  e.waitUntil(
    caches
      .open(APP)
      .then((c) => c.add(new Request(OFFLINE_PATH, { credentials: "same-origin" })))
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener("activate", (e) => {
  e.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== COPIES && name !== APP) await caches.delete(name);
      }
      // Copies older than a week go even if no page is opened again.
      await serial(sweep);
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener("fetch", (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (url.origin !== sw.location.origin) return;
  if (req.method !== "GET") {
    const drops = dropsFor(req.method, url.pathname);
    if (drops === "all") e.waitUntil(serial(dropAll));
    else if (drops) {
      e.waitUntil(
        serial(async () => {
          const cache = await caches.open(COPIES);
          for (const r of await cache.keys()) if (dropped(pathOf(r.url), drops)) await cache.delete(r);
        }),
      );
    }
    return; // the request itself goes to the network untouched
  }
  if (url.pathname.startsWith("/static/")) return e.respondWith(fromStatic(e, url.pathname));
  const kind = keepable(url.pathname);
  if (req.mode === "navigate" || kind) e.respondWith(fromNetwork(e, url.pathname, kind));
});
