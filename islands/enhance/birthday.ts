// Birth date дд.мм.гггг: digits and dots only, at most 10
// characters, dots put in after the day and the month as the customer types.

/** Formats what the customer has typed. `growing` is true while characters
 *  are being added, so that a trailing dot appears after "12" but Backspace
 *  on "12." can still remove it. */
export function formatBirthday(raw: string, growing: boolean): string {
  const d = raw.replace(/\D/g, "").slice(0, 8);
  let out = d.slice(0, 2);
  if (d.length > 2 || (growing && d.length === 2)) out += ".";
  out += d.slice(2, 4);
  if (d.length > 4 || (growing && d.length === 4)) out += ".";
  return out + d.slice(4);
}

function digitsBefore(s: string, pos: number): number {
  return s.slice(0, pos).replace(/\D/g, "").length;
}

/** Caret position in `s` just after its n-th digit (and any dot following it). */
function caretAfterDigits(s: string, n: number): number {
  if (n === 0) return 0;
  let seen = 0;
  for (let i = 0; i < s.length; i++) {
    if (/\d/.test(s[i]) && ++seen === n) {
      return s[i + 1] === "." ? i + 2 : i + 1;
    }
  }
  return s.length;
}

export default function enhanceBirthday(el: HTMLElement): void {
  if (!(el instanceof HTMLInputElement)) throw new Error("data-enhance=birthday needs an <input>");
  el.maxLength = 10;
  if (!el.inputMode) el.inputMode = "numeric";
  let previous = el.value;
  el.addEventListener("input", () => {
    const raw = el.value;
    const next = formatBirthday(raw, raw.length > previous.length);
    if (next !== raw) {
      const caretAtEnd = el.selectionStart === null || el.selectionStart >= raw.length;
      const digits = digitsBefore(raw, el.selectionStart ?? raw.length);
      el.value = next;
      const caret = caretAtEnd ? next.length : caretAfterDigits(next, digits);
      el.setSelectionRange(caret, caret);
    }
    previous = el.value;
  });
}
