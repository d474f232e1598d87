// The islands' runtime lives behind this module so that pages without
// islands never download it. The islands are written against React's API;
// the build runs them on Preact's implementation of it (see vite.config.ts).
import { Component, createElement, type ComponentType, type ReactNode } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";

type BoundaryProps = { onError: (err: unknown) => void; children?: ReactNode };

/** Catches what the island throws while rendering: it then renders nothing
 *  and says so, and the mount brings the page's fallback back. */
class Boundary extends Component<BoundaryProps, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(err: unknown) {
    this.props.onError(err);
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * Renders Island into el: into its [data-island-root] child if there is
 * one, else into a new <div data-island-root> appended to el, so the
 * server-rendered content is not replaced. Elements marked
 * [data-island-fallback] are hidden once the first render has committed, and
 * shown again if the island later crashes. Throws if the first render fails,
 * leaving the page as the server sent it.
 */
export function mount(
  el: HTMLElement,
  Island: ComponentType<any>,
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
  const onError = (err: unknown) => {
    if (!mounted) {
      firstError ??= err;
      return;
    }
    fallbacks.forEach((f) => (f.hidden = false));
    onCrash(err);
  };
  const root = createRoot(target);
  try {
    flushSync(() => root.render(createElement(Boundary, { onError }, createElement(Island, props))));
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
