// React's client module makes a few Error objects while it first runs and
// keeps them as signals: it throws one to suspend a render and recognises it
// by identity where it catches it; none ever reaches a customer. Making an
// Error is cheap in a customer's browser. With DevTools attached (and
// Lighthouse is DevTools) V8 records the line and column of every frame on
// the stack where an Error is made, and one of those frames is react-dom's
// whole module, which the bundler wraps in a single 180 KB function: the
// first signal made V8 parse all of react-dom a second time, one task of
// 50-90 ms on this machine before any slowdown.
//
// So the page makes the signals itself, in a small function of the mount
// loop, just before it loads React (prepareReactSignals), and the build
// (vite-react-signals.ts) has react-dom take them instead of making its
// own. Each is the same kind of object with the message React would give it;
// only where it was made differs. Wherever they have not been prepared (the
// tests, which run React's development build; a page that loads React some
// other way), react-dom makes its own, exactly as before.

/** The codes of the errors react-dom's production build makes while its
 *  module runs. The build fails when React's module makes a different set
 *  (a new React): the list then has to follow it. */
export const REACT_SIGNAL_CODES: readonly number[] = [460, 461, 474, 519, 542];

/** Where the prepared signals wait for react-dom, by code. */
export const REACT_SIGNALS_KEY = "lk.reactSignals";

/** React's production message for an error code without arguments, as its
 *  formatProdErrorMessage writes it. */
export function reactErrorMessage(code: number): string {
  return (
    `Minified React error #${code}; visit https://react.dev/errors/${code} for the full message ` +
    "or use the non-minified dev environment for full errors and additional helpful warnings."
  );
}

type SignalHolder = { [key: symbol]: Record<number, Error> | undefined };

/** Makes react-dom's signal errors here, once per page, before React's
 *  module runs. Call it from a shallow stack of small functions. */
export function prepareReactSignals(global: object = globalThis): void {
  const holder = global as SignalHolder;
  const key = Symbol.for(REACT_SIGNALS_KEY);
  if (holder[key]) return;
  const signals: Record<number, Error> = {};
  for (const code of REACT_SIGNAL_CODES) signals[code] = Error(reactErrorMessage(code));
  holder[key] = signals;
}
