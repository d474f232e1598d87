// Helpers for islands that post a page's own form by fetch, and the one way
// they ask the server for JSON.

/** The server's JSON answer to an island's request (handlers/respond.go). */
export type Answer = {
  ok: boolean;
  title?: string;
  message?: string;
  fields?: Record<string, string>;
  retryAfter?: number;
  phone?: string;
  resendIn?: number;
  redirect?: string;
  /** A fresh one-time token to try an action again. */
  token?: string;
};

/** What an island says when the server could not be asked or answered
 *  something unreadable. */
export const REQUEST_FAILED = "Не удалось выполнить запрос. Попробуйте позже.";

/** Asks url for JSON (same site, with the session's cookies). The body is
 *  T as the server sent it; null when the network failed, the request was
 *  aborted or the body is not a JSON object. */
export async function fetchJSON<T extends object = Answer>(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; ok: boolean; body: T } | null> {
  try {
    const res = await fetch(url, { ...init, headers: { Accept: "application/json" }, credentials: "same-origin" });
    const body: unknown = await res.json();
    if (typeof body !== "object" || body === null) return null;
    return { status: res.status, ok: res.ok, body: body as T };
  } catch {
    return null;
  }
}

/** The form's fields as a browser would post them (disabled ones left out). */
export function fieldsOf(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form)) {
    if (typeof value === "string") params.append(key, value);
  }
  return params;
}

/** Only same-site paths are followed, whatever the answer says. */
export function safePath(path: string | undefined, fallback: string): string {
  return path && path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : fallback;
}

/** What the customer gave a field of the server's form before an island
 *  came over it: a text or date field's new value, a radio button or a
 *  checkbox newly checked; undefined when the field is as the page came. */
export function changedValue(el: Element | null | undefined): string | undefined {
  if (!(el instanceof HTMLInputElement)) return undefined;
  if (el.type === "radio" || el.type === "checkbox") return el.checked && !el.defaultChecked ? el.value : undefined;
  return el.value !== el.defaultValue ? el.value : undefined;
}

/** Thrown while an island first renders when the customer has already
 *  chosen something in the server's form that the island cannot show: the
 *  island then does not mount and the form stays as the customer left it. */
export class KeepServerForm extends Error {
  constructor(what: string) {
    super(`the server form holds ${what}, which the island cannot take over`);
  }
}
