// The build's half of react-signals.ts: in react-dom's production client
// module, every Error the module makes and keeps while it runs (outside any
// function, and not thrown) is rewritten to take the one the page prepared
// under the same code, and to make its own, as React does, when there is
// none:
//
//   HydrationMismatchException = Error(formatProdErrorMessage(519))
//   → HydrationMismatchException = (globalThis[Symbol.for("lk.reactSignals")]?.[519]
//                                   ?? Error(formatProdErrorMessage(519)))
//
// Nothing else in React changes; an Error thrown while the module runs (a
// react and react-dom of different versions) is a real failure and stays as
// it is. The build stops when the module keeps an Error of any other form,
// or a set of codes other than REACT_SIGNAL_CODES, or when the module is not
// in the build at all: a new React needs a look, not a silent return of the
// slow task.
import type { Plugin } from "vite";
import { parseAst } from "vite";
import { REACT_SIGNALS_KEY, REACT_SIGNAL_CODES } from "./react-signals.ts";

/** The module the rewrite applies to (React's production client). */
export const REACT_DOM_CLIENT = /[\\/]react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/;

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** Every Error(...) or new Error(...) in the program that is neither inside
 *  a function nor thrown: every one the module makes and keeps as it runs. */
function errorsMadeAtLoad(program: Node): Node[] {
  const found: Node[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!value || typeof value !== "object" || typeof (value as Node).type !== "string") return;
    const node = value as Node;
    if (FUNCTIONS.has(node.type) || node.type === "ThrowStatement") return;
    if ((node.type === "CallExpression" || node.type === "NewExpression") && isIdentifier(node.callee, "Error")) {
      found.push(node);
    }
    for (const key of Object.keys(node)) if (key !== "type") visit(node[key]);
  };
  visit(program);
  return found;
}

function isIdentifier(node: unknown, name: string): boolean {
  return !!node && (node as Node).type === "Identifier" && (node as { name?: string }).name === name;
}

/** The code of Error(formatProdErrorMessage(N)), or null for any other form. */
function signalCode(error: Node): number | null {
  const args = error.arguments as Node[];
  if (args.length !== 1 || args[0].type !== "CallExpression") return null;
  const format = args[0] as Node & { arguments: Node[] };
  if (!isIdentifier(format.callee, "formatProdErrorMessage") || format.arguments.length !== 1) return null;
  const code = (format.arguments[0] as { value?: unknown }).value;
  return format.arguments[0].type === "Literal" && typeof code === "number" ? code : null;
}

/** Rewrites react-dom's client module (see above); throws when it cannot. */
export function takePreparedSignals(code: string): string {
  const signals = errorsMadeAtLoad(parseAst(code) as unknown as Node).map((error) => {
    const n = signalCode(error);
    if (n === null) {
      throw new Error(`react-dom keeps an Error of another form while its module runs: ${code.slice(error.start, error.end)}`);
    }
    return { error, code: n };
  });
  const expected = [...REACT_SIGNAL_CODES].sort((a, b) => a - b).join(", ");
  const got = signals.map((s) => s.code).sort((a, b) => a - b).join(", ");
  if (got !== expected) {
    throw new Error(`react-dom's module makes the errors ${got || "(none)"}, not ${expected}: update REACT_SIGNAL_CODES`);
  }
  const key = `Symbol.for(${JSON.stringify(REACT_SIGNALS_KEY)})`;
  let out = "";
  let at = 0;
  for (const { error, code: n } of signals.sort((a, b) => a.error.start - b.error.start)) {
    out += code.slice(at, error.start);
    out += `(globalThis[${key}]?.[${n}] ?? ${code.slice(error.start, error.end)})`;
    at = error.end;
  }
  return out + code.slice(at);
}

/** The Vite plugin: the rewrite on build, and the build's stop when React's
 *  client module was not in it. */
export function reactSignals(): Plugin {
  let rewritten = false;
  return {
    name: "lk-react-signals",
    apply: "build",
    buildStart() {
      rewritten = false;
    },
    transform(code, id) {
      if (!REACT_DOM_CLIENT.test(id)) return null;
      rewritten = true;
      return { code: takePreparedSignals(code), map: null };
    },
    buildEnd(error) {
      if (!error && !rewritten) {
        this.error("react-dom's production client module was not in the build; the signal errors were not rewritten");
      }
    },
  };
}
