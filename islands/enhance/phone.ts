// Phone mask +7 (9__) ___-__-__. The input keeps its name, so the
// form posts the formatted value; the server keeps only the digits.
// Only the pattern mask and the input control: the whole "imask" entry
// pulls in every mask type (date, number, range, …) for 3x the bytes.
import InputMask from "imask/controls/input";
import "imask/masked/pattern";

export const phoneMask = {
  mask: "+{7} (#00) 000-00-00",
  // Russian mobile numbers: the first digit after +7 is always 9.
  definitions: { "#": /9/ },
};

export default function enhancePhone(el: HTMLElement) {
  if (!(el instanceof HTMLInputElement)) throw new Error("data-enhance=phone needs an <input>");
  return new InputMask(el, phoneMask);
}
