// React and react-dom live behind this module so that pages without islands
// never download them.
import { createElement, type ComponentType } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";

/**
 * Renders Component into el: into its [data-island-root] child if there is
 * one, else into a new <div data-island-root> appended to el, so the
 * server-rendered content is not replaced. Elements marked
 * [data-island-fallback] are hidden once the first render has committed, and
 * shown again if the island later crashes. Throws if the first render fails,
 * leaving the page as the server sent it.
 */
export function mount(
  el: HTMLElement,
  Component: ComponentType<any>,
  props: Record<string, unknown>,
  onCrash: (err: unknown) => void,
): void {
  let container = el.querySelector<HTMLElement>(":scope > [data-island-root]");
  const created = !container;
  if (!container) {
    container = document.createElement("div");
    container.setAttribute("data-island-root", "");
    el.append(container);
  }
  const target = container;
  const fallbacks = Array.from(el.querySelectorAll<HTMLElement>("[data-island-fallback]"));

  let mounted = false;
  let firstError: unknown = null;
  const root = createRoot(target, {
    onUncaughtError(err) {
      // React has already unmounted the tree; bring the fallback back.
      if (!mounted) {
        firstError ??= err;
        return;
      }
      fallbacks.forEach((f) => (f.hidden = false));
      onCrash(err);
    },
  });

  try {
    flushSync(() => root.render(createElement(Component, props)));
  } catch (err) {
    firstError ??= err;
  }
  if (firstError !== null) {
    root.unmount();
    if (created) target.remove();
    throw firstError;
  }
  mounted = true;
  fallbacks.forEach((f) => (f.hidden = true));
}
