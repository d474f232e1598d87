// React and react-dom live behind this module so that pages without islands
// never download them.
import { Component, createElement, startTransition, useLayoutEffect, type ComponentType, type ReactNode } from "react";
import { createRoot } from "react-dom/client";

/** Catches what the island throws while rendering and then renders nothing;
 *  the root's onCaughtError hears of it and brings the fallback back. */
class Boundary extends Component<{ children?: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** Says when the island's first render has reached the page: it stands
 *  after the island inside the boundary, so it commits only when the island
 *  has rendered without throwing. */
function Committed(props: { onCommit: () => void }) {
  const { onCommit } = props;
  useLayoutEffect(onCommit, [onCommit]);
  return null;
}

/**
 * Renders Island into el: into its [data-island-root] child if there is
 * one, else into a new <div data-island-root> appended to el, so the
 * server-rendered content is not replaced. The render is a transition, so
 * React yields to the browser every few milliseconds instead of holding the
 * main thread for the whole island. Elements marked [data-island-fallback]
 * are hidden in the same commit that shows the island (the page never shows
 * both or neither), and shown again if the island later crashes, when
 * onCrash is called. Resolves once the island is on the page; rejects if
 * the first render fails, or signal is aborted before the island is on the
 * page, leaving the page as the server sent it.
 */
export function mount(
  el: HTMLElement,
  Island: ComponentType<any>,
  props: Record<string, unknown>,
  onCrash: (err: unknown) => void,
  signal?: AbortSignal,
): Promise<void> {
  let container = el.querySelector<HTMLElement>(":scope > [data-island-root]");
  const created = !container;
  if (!container) {
    container = document.createElement("div");
    container.setAttribute("data-island-root", "");
    el.append(container);
  }
  const target = container;
  const fallbacks = Array.from(el.querySelectorAll<HTMLElement>("[data-island-fallback]"));

  return new Promise((resolve, reject) => {
    let mounted = false;
    let failed = false;
    // React reports an error while it commits; the root is unmounted once
    // that commit is over.
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      if (mounted) {
        fallbacks.forEach((f) => (f.hidden = false));
        onCrash(err);
      }
      queueMicrotask(() => {
        root.unmount();
        if (!mounted) {
          if (created) target.remove();
          reject(err);
        }
      });
    };
    const root = createRoot(target, {
      onCaughtError: (err) => fail(err),
      onUncaughtError: (err) => fail(err),
    });
    // Given up before the island's first commit: its render is thrown away.
    signal?.addEventListener("abort", () => !mounted && fail(signal.reason), { once: true });
    const onCommit = () => {
      if (mounted || failed) return;
      if (signal?.aborted) return fail(signal.reason);
      mounted = true;
      fallbacks.forEach((f) => (f.hidden = true));
      resolve();
    };
    startTransition(() => {
      root.render(createElement(Boundary, null, createElement(Island, props), createElement(Committed, { onCommit })));
    });
  });
}
