// Helpers for islands that post a page's own form by fetch.

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
