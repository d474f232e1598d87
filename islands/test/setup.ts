import { afterEach, beforeEach, vi } from "vitest";
import { cleanup } from "@testing-library/react";

// happy-dom has <dialog> with showModal/close; older DOMs did not. Keep the
// tests independent of that.
const proto = globalThis.HTMLDialogElement?.prototype as HTMLDialogElement | undefined;
if (proto && typeof proto.showModal !== "function") {
  proto.showModal = function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  proto.close = function (this: HTMLDialogElement) {
    if (!this.hasAttribute("open")) return;
    this.removeAttribute("open");
    this.dispatchEvent(new Event("close"));
  };
}

// React warns unless it knows it runs under act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The tests' today: with LK_TEST_NOW (make test-days) the clock of Date
// stands at that instant, as the server's and the sandbox's do in the Go and
// the browser tests; the timers stay real.
const testNow = process.env.LK_TEST_NOW;
if (testNow) {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(testNow));
  });
}

afterEach(() => {
  cleanup();
  document.body.innerHTML = "";
  if (testNow) vi.useRealTimers();
});
