// A Chromium driven over the DevTools protocol the way Chromium lets a
// page be rendered ahead of a tap (speculation rules' prerender): the
// client attaches to the browser's tabs and, through each tab, to its
// pages. Chromium refuses every prerender to a client attached to a page
// directly, as Playwright attaches (PrerenderingDisabledByDevTools), so the
// taps of a phone are measured with this client instead.
//
// The protocol runs over a pipe (--remote-debugging-pipe: the browser reads
// commands from fd 3 and writes answers to fd 4, each message ended by a
// NUL byte): no port, no WebSocket.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";

type Message = { id?: number; method?: string; params?: any; result?: any; error?: { message: string }; sessionId?: string };
type Listener = (m: Message) => void;

export type TargetInfo = { targetId: string; type: string; subtype?: string; url: string };

/** A page of the tab: its protocol session and what it is. */
export type PageTarget = { session: string; info: TargetInfo };

export type Hooks = {
  /** Runs for every page before it runs any script of its own (a tab's
   *  page) or just after (a page rendered ahead, which Chromium does not
   *  let wait). */
  attached: (p: PageTarget, c: Chromium) => Promise<void>;
  /** Runs when a page rendered ahead becomes the tab's page. */
  shown?: (p: PageTarget, c: Chromium) => Promise<void>;
};

export class Chromium {
  private next = 0;
  private waiting = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void; method: string; session?: string }>();
  private listeners: Listener[] = [];
  /** Every page attached so far (a tab's page, a page rendered ahead), by session. */
  readonly pages = new Map<string, TargetInfo>();

  private constructor(
    private child: ChildProcess,
    private dir: string,
    private out: Writable,
    hooks: Hooks,
  ) {
    let buf = "";
    // The pipes are sockets: killing the browser may reset them.
    for (const fd of [3, 4]) (child.stdio[fd] as Readable | Writable).on("error", () => undefined);
    (child.stdio[4] as Readable).on("data", (d: Buffer) => {
      buf += d.toString();
      for (let i = buf.indexOf("\0"); i >= 0; i = buf.indexOf("\0")) {
        const m = JSON.parse(buf.slice(0, i)) as Message;
        buf = buf.slice(i + 1);
        this.dispatch(m);
      }
    });
    this.on((m) => {
      if (m.method === "Target.attachedToTarget") void this.attached(m.params.sessionId, m.params.targetInfo, hooks.attached);
      if (m.method === "Target.detachedFromTarget") {
        this.pages.delete(m.params.sessionId);
        // A page gone answers nothing more: what waits on it hears so now.
        for (const [id, w] of this.waiting) {
          if (w.session !== m.params.sessionId) continue;
          this.waiting.delete(id);
          w.reject(new Error(`cdp: ${w.method}: the page went away`));
        }
      }
      if (m.method === "Target.targetInfoChanged") {
        const now: TargetInfo = m.params.targetInfo;
        for (const [session, info] of this.pages) {
          if (info.targetId !== now.targetId) continue;
          this.pages.set(session, now);
          if (info.subtype === "prerender" && !now.subtype) void hooks.shown?.({ session, info: now }, this).catch(() => undefined);
        }
      }
    });
  }

  /** Starts Chromium (headless, a profile of its own) with args added. */
  static async launch(executable: string, args: string[], hooks: Hooks): Promise<Chromium> {
    const dir = mkdtempSync(join(tmpdir(), "lk-phone-"));
    const child = spawn(executable, ["--headless=new", "--remote-debugging-pipe", `--user-data-dir=${dir}`, ...args, "about:blank"], {
      stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"],
    });
    const c = new Chromium(child, dir, child.stdio[3] as Writable, hooks);
    // What each page is (its address, whether it is rendered ahead) as it
    // changes, from the browser: nothing is asked of the pages for it.
    await c.send("Target.setDiscoverTargets", { discover: true });
    await c.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: [{ type: "page", exclude: true }, {}] });
    for (const deadline = Date.now() + 10_000; !c.shown(); await new Promise((r) => setTimeout(r, 20))) {
      if (Date.now() > deadline) throw new Error("cdp: the browser opened no page");
    }
    return c;
  }

  private async attached(session: string, info: TargetInfo, onAttach: Hooks["attached"]): Promise<void> {
    const run = () => this.send("Runtime.runIfWaitingForDebugger", {}, session).catch(() => undefined);
    if (info.type === "tab") {
      await this.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, session);
      await run();
      return;
    }
    if (info.type !== "page") return void (await run());
    this.pages.set(session, info);
    // A page rendered ahead answers nothing while it waits: run it first.
    // One that Chromium has not yet called so when it attaches would leave
    // the hook's commands unanswered, and the page paused for good: the
    // hook gets a while, then the page runs whatever it answered.
    if (info.subtype === "prerender") await run();
    const hooked = await Promise.race([
      onAttach({ session, info }, this).then(() => true, () => true),
      new Promise<boolean>((late) => setTimeout(() => late(false), 3000)),
    ]);
    if (!hooked) console.warn(`cdp: ${info.url} did not answer the attach hook in 3 s (${info.subtype || "page"}); run anyway`);
    if (info.subtype !== "prerender") await run();
  }

  private dispatch(m: Message): void {
    if (m.id === undefined) {
      for (const l of this.listeners) l(m);
      return;
    }
    const w = this.waiting.get(m.id);
    if (!w) return;
    this.waiting.delete(m.id);
    if (m.error) w.reject(new Error(`${w.method}: ${m.error.message}`));
    else w.resolve(m.result);
  }

  /** Calls l with every event; returns what stops it. */
  on(l: Listener): () => void {
    this.listeners.push(l);
    return () => {
      this.listeners = this.listeners.filter((x) => x !== l);
    };
  }

  /** Sends a command and resolves with its answer; rejects, naming the
   *  command and the page, when no answer comes within timeoutMs (a page
   *  paused, or swapped for another, answers nothing), so that what waits
   *  on it fails saying so instead of waiting for the runner's timeout. */
  send(method: string, params: object = {}, sessionId?: string, timeoutMs = 45_000): Promise<any> {
    return new Promise((resolve, reject) => {
      const id = ++this.next;
      const timer = setTimeout(() => {
        if (!this.waiting.delete(id)) return;
        const page = sessionId ? (this.pages.get(sessionId)?.url ?? "a page gone") : "the browser";
        reject(new Error(`cdp: ${method} to ${page} not answered in ${timeoutMs} ms`));
      }, timeoutMs);
      const done = <T>(f: (v: T) => void) => (v: T) => {
        clearTimeout(timer);
        f(v);
      };
      this.waiting.set(id, { resolve: done(resolve), reject: done(reject), method, session: sessionId });
      this.out.write(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }) + "\0");
    });
  }

  /** The value of expression (awaited) in the page of session, if it
   *  comes within timeoutMs (a page being swapped for the one rendered
   *  ahead answers nothing). */
  async evaluate<T>(session: string, expression: string, timeoutMs = 60_000): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`evaluate: no answer from ${this.pages.get(session)?.url ?? "a page gone"} in ${timeoutMs} ms`)), timeoutMs)));
    const r = await Promise.race([this.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true }, session, timeoutMs + 1000), late]).finally(() => clearTimeout(timer));
    if (r.exceptionDetails) throw new Error(`evaluate: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value as T;
  }

  /** The page the tab shows now (not one rendered ahead). */
  shown(): PageTarget | undefined {
    for (const [session, info] of this.pages) if (info.subtype !== "prerender") return { session, info };
    return undefined;
  }

  async close(): Promise<void> {
    const exited = new Promise((r) => this.child.once("exit", r));
    const kill = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await this.send("Browser.close").catch(() => this.child.kill("SIGKILL"));
    await exited;
    clearTimeout(kill);
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
