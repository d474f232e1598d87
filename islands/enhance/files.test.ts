import { describe, expect, it } from "vitest";
import enhanceFiles, { chosenText, fileSize } from "./files";

describe("the documents' picker", () => {
  it("writes sizes as the server does", () => {
    expect(fileSize(10)).toBe("1 КБ");
    expect(fileSize(300 << 10)).toBe("300 КБ");
    expect(fileSize(1258291)).toBe("1,2 МБ");
  });

  it("names the chosen files", () => {
    expect(chosenText([])).toBe("Файлы не выбраны");
    expect(chosenText([{ name: "справка.pdf", size: 2048 }, { name: "паспорт.jpg", size: 3 << 20 }])).toBe(
      "Выбрано: справка.pdf (2 КБ), паспорт.jpg (3,0 МБ)",
    );
  });

  it("lists them when the customer chooses", () => {
    document.body.innerHTML = `<form><input type="file" id="documents" multiple data-enhance="files"><output for="documents" hidden></output></form>`;
    const input = document.querySelector("input")!;
    const out = document.querySelector("output")!;
    enhanceFiles(input);
    const files = [new File(["abc"], "справка.pdf")];
    Object.defineProperty(input, "files", { value: files, configurable: true });
    input.dispatchEvent(new Event("change"));
    expect(out.hidden).toBe(false);
    expect(out.textContent).toBe("Выбрано: справка.pdf (1 КБ)");
  });
});
