import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import SlotPicker, { PICK_BOTH, type Day, type SlotPickerProps } from "./SlotPicker";
import { KeepServerForm } from "../forms";

const hours = (busy: string[]) =>
  ["10", "11", "12", "13", "14", "15", "16"].map((h) => ({
    from: `${h}:00`,
    to: `${Number(h) + 1}:00`,
    free: !busy.includes(`${h}:00`),
  }));

const day: Day = {
  date: "2026-11-25", label: "25.11.2026", hourCost: 2000, cost: "2 000 ₽", amount: 6000, need: "3",
  hours: hours(["12:00"]),
};
const props: SlotPickerProps = { ...day, url: "/orders/pavilion/200001/transfer", dayForm: "#rent-day", min: "2026-11-23", max: "2026-12-23" };

let fetchMock: ReturnType<typeof vi.fn>;
let replies: { status: number; body: unknown }[];

async function settle() {
  await act(async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  });
}

// The page as the server renders it: the day's GET form, and the move's
// form with its token, its date and the island (with its fallback radios).
function mountPage(p: SlotPickerProps = props, before?: () => void) {
  document.body.innerHTML = `
    <form id="rent-day" method="get" action="${p.url}"><input type="date" name="date" value="${p.date}"><button>Показать</button></form>
    <form id="move" method="post" action="${p.url}">
      <input type="hidden" name="token" value="t1"><input type="hidden" name="date" value="${p.date}">
      <div id="island"><div data-island-fallback><input type="radio" name="from" value="10:00" checked>
        <input type="radio" name="from" value="13:00"><input type="radio" name="to" value="16:00"></div></div>
      <button type="submit">Перенести аренду</button>
    </form>`;
  before?.();
  const container = document.getElementById("island") as HTMLElement;
  return render(<SlotPicker {...p} />, { container: container.appendChild(document.createElement("div")) });
}

const slot = (name: string) => screen.getByRole("button", { name: new RegExp(`^${name}`) });
const alertText = () => screen.getByRole("alert").textContent;

beforeEach(() => {
  replies = [];
  fetchMock = vi.fn(() => {
    const r = replies.shift() ?? { status: 500, body: {} };
    return Promise.resolve({ ok: r.status < 300, status: r.status, json: () => Promise.resolve(r.body) });
  });
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("SlotPicker", () => {
  it("shows every hour as a real control, busy ones unavailable", () => {
    mountPage();
    expect(screen.getAllByRole("button", { pressed: false })).toHaveLength(7);
    expect(slot("12:00").getAttribute("aria-disabled")).toBe("true");
    expect(slot("12:00").textContent).toContain("занято");
    expect(slot("13:00").getAttribute("aria-disabled")).toBeNull();
    expect(screen.getByText(/оплачена на 3 ч\./)).toBeTruthy();
  });

  it("takes the start, then the end, into the form's fields", () => {
    mountPage();
    fireEvent.click(slot("13:00"));
    expect(slot("13:00").getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(slot("15:00"));
    expect(["13:00", "14:00", "15:00"].map((h) => slot(h).getAttribute("aria-pressed"))).toEqual(["true", "true", "true"]);
    const form = document.getElementById("move") as HTMLFormElement;
    const data = new FormData(form);
    expect([data.get("from"), data.get("to")]).toEqual(["13:00", "16:00"]);
    expect(data.getAll("from")).toHaveLength(1); // the fallback's radio is out of the way
    expect(screen.getByRole("status").textContent).toContain("13:00–16:00");
  });

  it("does not take a busy hour, and alerts a period over one at once", () => {
    mountPage();
    fireEvent.click(slot("12:00"));
    expect(slot("12:00").getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(slot("11:00"));
    fireEvent.click(slot("13:00"));
    expect(alertText()).toBe("Невозможно выбрать период с неактивными часами.");
    expect(slot("13:00").getAttribute("aria-pressed")).toBe("false");
  });

  it("alerts a wrong length at once", () => {
    mountPage();
    fireEvent.click(slot("13:00"));
    fireEvent.click(slot("14:00"));
    expect(alertText()).toBe("Такой период невозможен, необходимо выбрать от и до, вам доступно: 3 ч.");
  });

  it("loads another day in place", async () => {
    mountPage();
    fireEvent.click(slot("13:00"));
    replies.push({ status: 200, body: { ok: true, ...day, date: "2026-11-26", label: "26.11.2026", hours: hours(["14:00", "15:00"]) } });
    const input = document.querySelector<HTMLInputElement>("#rent-day input") as HTMLInputElement;
    input.value = "2026-11-26";
    fireEvent.change(input);
    await settle();
    expect(fetchMock).toHaveBeenCalledWith("/orders/pavilion/200001/transfer?date=2026-11-26", expect.anything());
    expect(fetchMock.mock.calls[0][1].headers).toEqual({ Accept: "application/json" });
    expect(screen.getByRole("heading").textContent).toBe("Часы на 26.11.2026");
    expect(slot("14:00").getAttribute("aria-disabled")).toBe("true");
    expect(slot("13:00").getAttribute("aria-pressed")).toBe("false");
    expect(document.querySelector<HTMLInputElement>('#move input[name="date"]')?.value).toBe("2026-11-26");
    // The day form's button does the same, without a page load.
    replies.push({ status: 422, body: { title: "Ой!", message: "Выберите дату с 24.11.2026 по 24.12.2026." } });
    fireEvent.submit(document.getElementById("rent-day") as HTMLFormElement);
    await settle();
    expect(alertText()).toContain("Выберите дату с 24.11.2026 по 24.12.2026.");
  });

  it("posts the same form and goes on to the new rent at once", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    mountPage();
    fireEvent.submit(document.getElementById("move") as HTMLFormElement);
    expect(alertText()).toBe(PICK_BOTH);
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(slot("13:00"));
    fireEvent.click(slot("15:00"));
    replies.push({ status: 502, body: { title: "Ой!", message: "Сервис недоступен", token: "t2" } });
    fireEvent.submit(document.getElementById("move") as HTMLFormElement);
    await settle();
    const [url, init] = fetchMock.mock.calls[0];
    expect(String(url)).toMatch(/\/orders\/pavilion\/200001\/transfer$/);
    expect(Object.fromEntries(init.body)).toEqual({ token: "t1", date: "2026-11-25", from: "13:00", to: "16:00" });
    expect(alertText()).toBe("Сервис недоступен");
    expect(document.querySelector<HTMLInputElement>('input[name="token"]')?.value).toBe("t2");

    replies.push({ status: 200, body: { ok: true, message: "Перенос выполнен успешно", redirect: "/orders/pavilion/500001" } });
    fireEvent.submit(document.getElementById("move") as HTMLFormElement);
    await settle();
    // On to the order at once, as without JavaScript; it shows the message.
    expect(assign).toHaveBeenCalledWith("/orders/pavilion/500001");
  });

  it("keeps a choice the server sent back", () => {
    mountPage({ ...props, from: "13:00", to: "16:00" });
    expect(slot("15:00").getAttribute("aria-pressed")).toBe("true");
  });

  // What the customer chose in the server's form before the island came.
  const check = (name: string, value: string) => {
    document.querySelector<HTMLInputElement>(`[data-island-fallback] input[name="${name}"][value="${value}"]`)!.checked = true;
  };

  it("keeps the hours chosen in the server's radio buttons", () => {
    mountPage(props, () => {
      check("from", "13:00");
      check("to", "16:00");
    });
    expect(["13:00", "14:00", "15:00"].map((h) => slot(h).getAttribute("aria-pressed"))).toEqual(["true", "true", "true"]);
    expect(slot("10:00").getAttribute("aria-pressed")).toBe("false");
    const form = new FormData(document.getElementById("move") as HTMLFormElement);
    expect([form.get("from"), form.get("to")]).toEqual(["13:00", "16:00"]);
  });

  it("loads a day typed into the day's form before it came", async () => {
    replies.push({ status: 200, body: { ...day, date: "2026-11-26", label: "26.11.2026" } });
    mountPage(props, () => {
      document.querySelector<HTMLInputElement>("#rent-day input[name=date]")!.value = "2026-11-26";
    });
    await settle();
    expect(fetchMock).toHaveBeenCalledWith("/orders/pavilion/200001/transfer?date=2026-11-26", expect.anything());
    expect(screen.getByRole("heading", { name: "Часы на 26.11.2026" })).toBeTruthy();
  });

  it("leaves the server's form when hours and another day were both chosen", () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      expect(() =>
        mountPage(props, () => {
          check("from", "13:00");
          document.querySelector<HTMLInputElement>("#rent-day input[name=date]")!.value = "2026-11-26";
        }),
      ).toThrow(KeepServerForm);
    } finally {
      spy.mockRestore();
    }
  });
});
