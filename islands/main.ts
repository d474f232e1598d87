// The one mount loop. Pages stay plain server-rendered HTML; this script
// (loaded as <script type="module">, so deferred) only enhances them:
//
//   <div data-island="sms-code" data-props="sms-code-props"> …fallback… </div>
//   <script id="sms-code-props" type="application/json">{…}</script>
//   <input name="phone" data-enhance="phone">
//
// Nothing of an island is fetched before the first paint; when each island
// mounts is when.ts's to say; if anything fails, the server's fallback stays.
import type { ComponentType } from "react";
import { linkManifest, registerWorker } from "./webapp";
import { afterFirstPaint, deadline, filesArrived, idle, MOUNT_WAIT_MS, nextTask, onSubmit, SUBMIT_WAIT_MS, until, Used, whenUsed, type Then } from "./when";

type IslandLoader = () => Promise<{ default: ComponentType<any> }>;
type EnhanceLoader = () => Promise<{ default: (el: HTMLElement) => unknown }>;

// Static maps so that Vite sees every import() and splits a chunk per entry.
export const islands: Record<string, IslandLoader> = {
  "sms-code": () => import("./sms-code/SmsCode"),
  "slot-picker": () => import("./slot-picker/SlotPicker"),
  calendar: () => import("./calendar/TransferCalendar"),
};

export const enhancements: Record<string, EnhanceLoader> = {
  phone: () => import("./enhance/phone"),
  birthday: () => import("./enhance/birthday"),
  files: () => import("./enhance/files"),
};

function warn(what: string, err: unknown): void {
  console.warn(`[islands] ${what}: fallback kept`, err);
}

/** Finds the island's props: the JSON script named by data-props, or else the
 *  next sibling <script type="application/json">; no props at all means {}. */
export function readProps(el: HTMLElement): Record<string, unknown> {
  let script: Element | null = null;
  const id = el.dataset.props;
  if (id) {
    script = document.getElementById(id);
    if (!script) throw new Error(`props element #${id} not found`);
  } else {
    const next = el.nextElementSibling;
    if (next?.matches('script[type="application/json"]')) script = next;
  }
  if (!script) return {};
  if (!script.matches('script[type="application/json"]')) {
    throw new Error("props element is not <script type=\"application/json\">");
  }
  const props: unknown = JSON.parse(script.textContent || "");
  if (typeof props !== "object" || props === null || Array.isArray(props)) {
    throw new Error("props must be a JSON object");
  }
  return props as Record<string, unknown>;
}

/** Loads React and the island and renders it in a transition (react-mount.ts),
 *  unless signal is aborted first: then the island is given up, whatever
 *  arrives later, and the server's version stays whole. */
async function mountIsland(el: HTMLElement, registry: Record<string, IslandLoader>, signal: AbortSignal): Promise<void> {
  const name = el.dataset.island ?? "";
  el.dataset.islandState = "loading";
  try {
    const load = registry[name];
    if (!load) throw new Error(`unknown island "${name}"`);
    const props = readProps(el);
    // React, the island's module, the render: a task each, not one long one.
    const { mount } = await until(import("./react-mount"), signal);
    await until(nextTask(), signal);
    const mod = await until(load(), signal);
    await until(nextTask(), signal);
    await mount(el, mod.default, props, (err) => {
      el.dataset.islandState = "failed";
      warn(`island "${name}" crashed`, err);
    }, signal);
    el.dataset.islandState = "mounted";
    performance.mark?.(`island-mounted:${name}`);
  } catch (err) {
    // kept: the customer was using the server's version when it came
    el.dataset.islandState = err instanceof Used ? "kept" : "failed";
    warn(`island "${name}" not mounted`, err);
  }
}

async function enhance(el: HTMLElement, registry: Record<string, EnhanceLoader>): Promise<void> {
  const name = el.dataset.enhance ?? "";
  try {
    const load = registry[name];
    if (!load) throw new Error(`unknown enhancement "${name}"`);
    (await load()).default(el);
    el.dataset.enhanceState = "done";
  } catch (err) {
    warn(`enhancement "${name}" not applied`, err);
  }
}

/** Mounts every island and applies every enhancement under root, once each:
 *  an enhancement at once; an island with data-mount-on-submit when its form
 *  is first sent (not awaited here); the others once ready() resolves
 *  (called once, and only if there is such an island). */
export function mountAll(
  root: ParentNode = document,
  islandMap: Record<string, IslandLoader> = islands,
  enhanceMap: Record<string, EnhanceLoader> = enhancements,
  ready: () => Promise<void> = idle,
): Promise<void> {
  const jobs: Promise<void>[] = [];
  let queue: Promise<void> | undefined;
  root.querySelectorAll<HTMLElement>("[data-island]").forEach((el) => {
    if (el.dataset.islandState) return;
    const selector = el.dataset.mountOnSubmit;
    if (!selector) {
      el.dataset.islandState = "loading";
      // Given up when late, or once the customer uses what the server sent.
      const ctl = deadline(MOUNT_WAIT_MS);
      whenUsed(el, ctl);
      // One island after another, so that their steps never pile up.
      queue = (queue ?? ready()).then(() => mountIsland(el, islandMap, ctl.signal));
      jobs.push(queue);
      return;
    }
    const form = document.querySelector(selector);
    if (!(form instanceof HTMLFormElement)) {
      el.dataset.islandState = "failed";
      warn(`island "${el.dataset.island}" not mounted`, new Error(`form ${selector} not found`));
      return;
    }
    el.dataset.islandState = "waiting";
    void onSubmit(form).then((then: Then) => {
      // The tap goes to the server if the island is not there soon after.
      const ctl = deadline(SUBMIT_WAIT_MS);
      ctl.signal.addEventListener("abort", then, { once: true });
      void mountIsland(el, islandMap, ctl.signal).then(then);
    });
  });
  root.querySelectorAll<HTMLElement>("[data-enhance]").forEach((el) => {
    if (!el.dataset.enhanceState) jobs.push(enhance(el, enhanceMap));
  });
  return Promise.all(jobs).then(() => undefined);
}

registerWorker();
void afterFirstPaint()
  .then(() => {
    const arrived = filesArrived();
    return mountAll(document, islands, enhancements, () => arrived.then(() => idle()));
  })
  .then(() => linkManifest());
