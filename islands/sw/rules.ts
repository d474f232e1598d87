// The offline worker's rules, pure so that Vitest checks them without a
// browser: which answers are kept, for how long, which documents are kept
// before they are opened, what is dropped, and how a kept page reads
// offline. The worker (worker.ts) only moves bytes between the network and
// the cache by these rules.
//
// The server tells the worker what it needs, so the worker guesses nothing:
//   LK-Session: a token of the sign-in the answer was made for, or "none"
//               when nobody is signed in any more (handlers/offline.go);
//   LK-Keep:    on home and the order list, the tickets, vouchers and
//               Wallet passes of today's and tomorrow's orders,
//               space-separated;
//   LK-Framed:  the page's loading frame went before the page was known
//               (status 200 then); the page names its own status in
//               <meta name="lk-status">;
//   the cookie __Host-lk_copies: the LK-Session token of the sign-in the
//               browser holds now, which the worker reads offline.

export const SESSION_HEADER = "LK-Session";
export const KEEP_HEADER = "LK-Keep";
export const FRAMED_HEADER = "LK-Framed";
/** Set by the worker on a copy: when it was kept, in ms since the epoch. */
export const KEPT_AT_HEADER = "LK-Kept-At";
/** The owner of a copy, as the server named it (LK-Session). */
export const NONE = "none";

/** A copy older than a week is never shown and is deleted. */
export const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** At most this many pages and documents are kept; the oldest go first. */
export const MAX_COPIES = 40;
/** Static files (scripts, images, the offline page) kept at most. */
export const MAX_STATIC = 30;
/** A document kept less than this ago is not fetched again before it is opened. */
export const DOC_FRESH_MS = 60 * 60 * 1000;
/** At most this many documents are fetched ahead from one page. */
export const MAX_AHEAD = 10;

/** The cookie that names the browser's sign-in, as LK-Session does. */
export const COPIES_COOKIE = "__Host-lk_copies";

/** The page shown for a page never kept, kept when the worker installs. */
export const OFFLINE_PATH = "/offline";

const ID = "[A-Za-z0-9._-]{1,64}";
const ORDER_PAGE = new RegExp(`^/orders/(glk|GLK|pavilion|aqua|hotel|celRoom)/${ID}$`);
// A ticket or voucher, and a booking's Apple Wallet passes, kept alike.
const DOCUMENT = new RegExp(
  `^/orders/(aqua/${ID}/(ticket\\.pdf|ticket\\.pkpass|tickets\\.pkpasses)|hotel/${ID}/voucher\\.(pdf|pkpass)|(glk|GLK)/${ID}/lesson\\.pkpass)$`,
);

export type Kind = "page" | "document";

/** What may be kept at path: home, the order list, an order's page, a
 *  ticket or voucher, a booking's Wallet passes. Nothing else (the profile, the action pages, the
 *  sign-in pages) is ever kept. */
export function keepable(path: string): Kind | null {
  if (path === "/" || path === "/orders" || ORDER_PAGE.test(path)) return "page";
  if (DOCUMENT.test(path)) return "document";
  return null;
}

export type Verdict =
  | { session: "ended" }
  | { session: "owner"; owner: string }
  | { session: "unknown" };

/** What an answer says of the session: ended (the server said "none", or
 *  the provider refused the token: 401), signed in as owner, or unknown
 *  (no header: the server could not tell, so nothing changes). */
export function sessionOf(status: number, header: string | null): Verdict {
  if (status === 401 || header === NONE) return { session: "ended" };
  if (header) return { session: "owner", owner: header };
  return { session: "unknown" };
}

/** Whether an answer may be kept as the copy of its path. */
export function mayKeep(a: { path: string; status: number; redirected: boolean; type: string; owner: string | null }): boolean {
  return (
    keepable(a.path) !== null &&
    a.status === 200 &&
    !a.redirected &&
    a.type === "basic" &&
    !!a.owner &&
    a.owner !== NONE
  );
}

/** Whether a page's body says it succeeded: always, unless its frame went
 *  first (framed), when the page after the frame must name status 200. A
 *  failure after the frame never replaces a good copy. */
export function succeeded(framed: string | null, html: string): boolean {
  if (!framed) return true;
  return /<meta name="lk-status" content="(\d+)">/.exec(html)?.[1] === "200";
}

/** A kept copy as the rules see it. */
export interface Copy {
  path: string;
  keptAt: number;
  owner: string;
}

/** When the sign-in named by owner ends, in ms since the epoch: the server
 *  writes it after a dot (LK-Session "token.seconds"); Infinity if not. */
export function sessionEnd(owner: string | null | undefined): number {
  const m = /\.(\d+)$/.exec(owner ?? "");
  return m ? Number(m[1]) * 1000 : Infinity;
}

/** Whether a copy kept at keptAt is too old to show at now, or its sign-in
 *  has ended (a cookie expired while the phone was offline: no server
 *  could say "none"). */
export function expired(keptAt: number, now: number, owner?: string | null): boolean {
  return !Number.isFinite(keptAt) || now - keptAt > MAX_AGE_MS || now >= sessionEnd(owner);
}

/**
 * Whether a copy of owner may be shown, by the cookie that names the
 * browser's sign-in now: undefined where the worker cannot read cookies
 * (no Cookie Store: the copy's own end decides), null when the cookie is
 * gone (the site's cookies removed, the sign-in over): nothing is shown.
 */
export function mayShow(owner: string | null | undefined, cookie: string | null | undefined): boolean {
  return cookie === undefined || (!!owner && owner === cookie);
}

/** The copies to delete now: those expired, and every one the cookie no
 *  longer names, documents included, so none outlives its sign-in. */
export function toSweep(copies: Copy[], now: number, cookie: string | null | undefined): string[] {
  return copies.filter((c) => expired(c.keptAt, now, c.owner) || !mayShow(c.owner, cookie)).map((c) => c.path);
}

/**
 * The paths of the copies to delete before `incoming` new ones are kept for
 * owner: every copy of another sign-in, every one older than a week, and
 * then the oldest, so that no more than MAX_COPIES remain.
 */
export function toDrop(copies: Copy[], now: number, owner: string, incoming = 0): string[] {
  const drop: string[] = [];
  const stay: Copy[] = [];
  for (const c of copies) {
    if (c.owner !== owner || expired(c.keptAt, now, c.owner)) drop.push(c.path);
    else stay.push(c);
  }
  stay.sort((a, b) => a.keptAt - b.keptAt);
  const over = stay.length + incoming - MAX_COPIES;
  for (let i = 0; i < over && i < stay.length; i++) drop.push(stay[i].path);
  return drop;
}

/**
 * The documents to fetch ahead from an LK-Keep header: tickets and
 * vouchers only (anything else the header might hold is ignored), once
 * each, at most MAX_AHEAD, and not those kept for owner within the last
 * hour.
 */
export function ahead(header: string | null, kept: Copy[], now: number, owner: string): string[] {
  const out: string[] = [];
  for (const path of (header ?? "").split(/\s+/)) {
    if (out.length === MAX_AHEAD) break;
    if (keepable(path) !== "document" || out.includes(path)) continue;
    const c = kept.find((k) => k.path === path);
    if (c && c.owner === owner && now - c.keptAt >= 0 && now - c.keptAt < DOC_FRESH_MS) continue;
    out.push(path);
  }
  return out;
}

/**
 * What a request the customer sends drops before it reaches the server:
 * "all" for a sign-out; for an action on an order (confirm, cancel, move,
 * refund), the order's page and document and the lists that show it,
 * which the action is about to change; home for a profile edit, which
 * home shows. null: nothing.
 */
export function dropsFor(method: string, path: string): "all" | string[] | null {
  if (method === "GET" || method === "HEAD") return null;
  if (path === "/logout") return "all";
  if (path === "/profile/edit") return ["/"];
  const m = new RegExp(`^(/orders/(glk|GLK|pavilion|aqua|hotel|celRoom)/${ID})/`).exec(path);
  if (m) return ["/", "/orders", m[1]];
  return null;
}

/** Whether path is one of the drops; an order's page takes its document
 *  with it. */
export function dropped(path: string, drops: string[]): boolean {
  return drops.some((d) => path === d || (ORDER_PAGE.test(d) && path.startsWith(d + "/")));
}

/** The static files to delete, oldest first (keys in the order they were
 *  kept), so that at most MAX_STATIC remain; the offline page stays. */
export function staticToDrop(paths: string[]): string[] {
  const rest = paths.filter((p) => p !== OFFLINE_PATH);
  const keep = MAX_STATIC - (rest.length < paths.length ? 1 : 0);
  return rest.slice(0, Math.max(0, rest.length - keep));
}

const two = (n: number) => String(n).padStart(2, "0");

/** 'Нет соединения. Показана сохранённая версия от ДД.ММ.ГГГГ ЧЧ:ММ.', in
 *  the phone's own time. */
export function offlineNotice(keptAt: number): string {
  const d = new Date(keptAt);
  return (
    `Нет соединения. Показана сохранённая версия от ${two(d.getDate())}.${two(d.getMonth() + 1)}.${d.getFullYear()} ` +
    `${two(d.getHours())}:${two(d.getMinutes())}.`
  );
}

/** Why the buttons are gone from a kept page. */
export const OFFLINE_WHY = "Без связи кнопки заказов и выход скрыты: они вернутся, когда появится интернет.";

// Offline, every form (the actions done in place, the sign-out) and every
// action link but the document and the Wallet pass is hidden: none of them
// could work.
const OFFLINE_CSS =
  "[data-offline] form,[data-offline] [data-action]:not([data-action=document]):not([data-action=wallet])," +
  "[data-offline] a[href=\"/profile/edit\"]{display:none!important}" +
  ".notice-off{border-color:#9a5b00;background:#fff4e0}.notice-off p:last-child{margin:0}";

/**
 * A kept page as shown offline: marked data-offline (which hides what
 * cannot work, and the links to documents that were not kept), the notice
 * with the time it was kept at the top of the content, and the style that
 * does it under the nonce the page's own Content-Security-Policy allows.
 */
export function markOffline(html: string, keptAt: number, kept: (path: string) => boolean = () => false): string {
  const nonce = /<style nonce="([^"]*)"/.exec(html)?.[1];
  let css = OFFLINE_CSS;
  for (const [, href] of html.matchAll(/href="(\/orders\/[^"]+\.(?:pdf|pkpass|pkpasses))"/g)) {
    if (keepable(href) === "document" && !kept(href)) css += `[data-offline] a[href="${href}"]{display:none!important}`;
  }
  const note =
    `<div class="notice notice-off" role="status" data-offline-notice><p>${offlineNotice(keptAt)}</p>` +
    `<p>${OFFLINE_WHY}</p></div>`;
  let out = html.replace(/<html\b/, "<html data-offline");
  if (nonce !== undefined) out = out.replace("</head>", `<style nonce="${nonce}">${css}</style></head>`);
  const main = /<main\b[^>]*>/.exec(out) ?? /<body\b[^>]*>/.exec(out);
  if (!main) return note + out;
  const at = main.index + main[0].length;
  return out.slice(0, at) + note + out.slice(at);
}
