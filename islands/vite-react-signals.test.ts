import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { prepareReactSignals, reactErrorMessage, REACT_SIGNAL_CODES, REACT_SIGNALS_KEY } from "./react-signals";
import { REACT_DOM_CLIENT, takePreparedSignals } from "./vite-react-signals";

const require = createRequire(import.meta.url);
// React's production client module, as the build reads it.
const clientPath = join(dirname(require.resolve("react-dom/package.json")), "cjs", "react-dom-client.production.js");
const client = readFileSync(clientPath, "utf8");

/** Runs a CommonJS module as the bundle would, with every Error it makes
 *  counted; returns its exports and the messages of the errors made. */
function load(code: string): { exports: Record<string, unknown>; made: string[] } {
  const made: string[] = [];
  function CountingError(this: unknown, message?: string, options?: ErrorOptions): Error {
    made.push(String(message));
    return new Error(message, options);
  }
  const exports: Record<string, unknown> = {};
  new Function("exports", "require", "Error", code)(exports, require, CountingError);
  return { exports, made };
}

const key = Symbol.for(REACT_SIGNALS_KEY);
afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[key];
});

describe("react-dom's signal errors", () => {
  it("are rewritten in the module the build reads", () => {
    expect(clientPath).toMatch(REACT_DOM_CLIENT);
  });

  it("are made by React's module itself as it runs, as they are without the rewrite", () => {
    const { exports, made } = load(client);
    expect(typeof exports.createRoot).toBe("function");
    expect(made.sort()).toEqual(REACT_SIGNAL_CODES.map(reactErrorMessage).sort());
  });

  it("are taken from the page once prepared: the rewritten module makes none while it runs", () => {
    prepareReactSignals();
    const { exports, made } = load(takePreparedSignals(client));
    expect(typeof exports.createRoot).toBe("function");
    expect(made).toEqual([]);
  });

  it("are still made by the rewritten module when the page has not prepared them", () => {
    const { made } = load(takePreparedSignals(client));
    expect(made.sort()).toEqual(REACT_SIGNAL_CODES.map(reactErrorMessage).sort());
  });

  it("are prepared once per page, with React's messages", () => {
    prepareReactSignals();
    const first = (globalThis as Record<symbol, Record<number, Error>>)[key];
    prepareReactSignals();
    expect((globalThis as Record<symbol, unknown>)[key]).toBe(first);
    for (const code of REACT_SIGNAL_CODES) {
      expect(first[code]).toBeInstanceOf(Error);
      expect(first[code].message).toBe(reactErrorMessage(code));
    }
  });

  it("stop the build when React's module keeps an error the rewrite does not know", () => {
    const kept = REACT_SIGNAL_CODES.map((c, i) => `var s${i} = Error(formatProdErrorMessage(${c}));`).join("\n");
    expect(() => takePreparedSignals(kept)).not.toThrow();
    expect(() => takePreparedSignals(`${kept}\nvar other = Error(formatProdErrorMessage(999));`)).toThrow(
      /update REACT_SIGNAL_CODES/,
    );
    expect(() => takePreparedSignals(`${kept}\nvar other = new Error("x");`)).toThrow(/another form/);
    expect(() => takePreparedSignals("var x = 1;")).toThrow(/\(none\)/);
  });

  it("leave alone an error thrown as the module runs, and every error made inside a function", () => {
    const kept = REACT_SIGNAL_CODES.map((c, i) => `var s${i} = Error(formatProdErrorMessage(${c}));`).join("\n");
    const rest = `if (a !== b) throw Error(formatProdErrorMessage(527, a, b));\nfunction f() { return Error(formatProdErrorMessage(1)); }`;
    const out = takePreparedSignals(`${kept}\n${rest}`);
    expect(out.endsWith(rest)).toBe(true);
  });
});
