import { describe, expect, it } from "vitest";
import enhanceBirthday, { formatBirthday } from "./enhance/birthday";
import enhancePhone from "./enhance/phone";

// Types text the way a browser does: new value, caret at the end, input event.
function type(input: HTMLInputElement, text: string) {
  for (const ch of text) {
    const value = input.value + ch;
    input.value = value;
    input.setSelectionRange(value.length, value.length);
    input.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: ch }));
  }
}

function backspace(input: HTMLInputElement) {
  const value = input.value.slice(0, -1);
  input.value = value;
  input.setSelectionRange(value.length, value.length);
  input.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "deleteContentBackward" }));
}

function field(attrs: string) {
  document.body.innerHTML = `<form><input ${attrs}></form>`;
  return document.querySelector("input") as HTMLInputElement;
}

describe("phone mask", () => {
  it("formats typed digits as +7 (900) 000-00-00 and keeps the field name", () => {
    const input = field(`name="phone" type="tel" data-enhance="phone"`);
    enhancePhone(input);
    type(input, "9000000000");
    expect(input.value).toBe("+7 (900) 000-00-00");
    expect(input.name).toBe("phone");
    expect(new FormData(input.form!).get("phone")).toBe("+7 (900) 000-00-00");
  });

  it("takes a number typed with 8 or +7 in front", () => {
    const input = field(`name="phone"`);
    enhancePhone(input);
    type(input, "89001234567");
    expect(input.value).toBe("+7 (900) 123-45-67");

    const other = field(`name="phone"`);
    enhancePhone(other);
    type(other, "+79001234567");
    expect(other.value).toBe("+7 (900) 123-45-67");
  });

  it.each(["+7 (900) 000-00-00", "79000000000", "+7 900 000 00 00"])("keeps a value the server rendered again: %j", (v) => {
    const input = field(`name="phone" value="${v}"`);
    enhancePhone(input);
    expect(input.value).toBe("+7 (900) 000-00-00");
  });

  it("refuses a first digit other than 9", () => {
    const input = field(`name="phone"`);
    enhancePhone(input);
    type(input, "4");
    expect(input.value).toBe("+7 (");
    type(input, "95");
    expect(input.value).toBe("+7 (95");
  });
});

describe("birthday", () => {
  it("inserts dots after the day and the month as the customer types", () => {
    const input = field(`name="birthDate" data-enhance="birthday"`);
    enhanceBirthday(input);
    type(input, "1");
    expect(input.value).toBe("1");
    type(input, "2");
    expect(input.value).toBe("12.");
    type(input, "03");
    expect(input.value).toBe("12.03.");
    type(input, "19851");
    expect(input.value).toBe("12.03.1985");
    expect(input.maxLength).toBe(10);
  });

  it("drops letters and lets Backspace remove a dot", () => {
    const input = field(`name="birthDate"`);
    enhanceBirthday(input);
    type(input, "1a2");
    expect(input.value).toBe("12.");
    backspace(input);
    expect(input.value).toBe("12");
    backspace(input);
    expect(input.value).toBe("1");
  });

  it.each([
    ["01011990", true, "01.01.1990"],
    ["01.01.1990", false, "01.01.1990"],
    ["31/12/2000", true, "31.12.2000"],
    ["123", true, "12.3"],
    ["1234", false, "12.34"],
    ["", true, ""],
  ])("formats %j (growing %s) as %j", (raw, growing, want) => {
    expect(formatBirthday(raw, growing)).toBe(want);
  });
});
