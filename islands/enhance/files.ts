// The documents' picker: the visually hidden <input type=file> under its
// large label shows nothing of what was chosen, so the names (and sizes)
// of the chosen files are listed beside it, read out as they change.

/** "1,2 МБ" or "300 КБ", as the server writes the sizes of kept files. */
export function fileSize(n: number): string {
  if (n < 1 << 20) return `${Math.max(1, Math.ceil(n / 1024))} КБ`;
  return `${(n / (1 << 20)).toFixed(1).replace(".", ",")} МБ`;
}

/** What the list says for the chosen files. */
export function chosenText(files: ArrayLike<{ name: string; size: number }>): string {
  if (files.length === 0) return "Файлы не выбраны";
  const names = Array.from(files, (f) => `${f.name} (${fileSize(f.size)})`);
  return `Выбрано: ${names.join(", ")}`;
}

export default function enhanceFiles(el: HTMLElement): void {
  if (!(el instanceof HTMLInputElement) || el.type !== "file") throw new Error("data-enhance=files needs an <input type=file>");
  const out = el.form?.querySelector<HTMLElement>(`output[for="${el.id}"]`);
  if (!out) throw new Error("data-enhance=files needs an <output> for its input");
  const show = () => {
    out.textContent = chosenText(el.files ?? []);
    out.hidden = false;
  };
  el.addEventListener("change", show);
  if (el.files && el.files.length > 0) show(); // chosen before the script came
}
