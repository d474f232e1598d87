import { act, fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import TransferCalendar, { LOAD_FAILED, type DayMoveProps, type StayProps } from "./TransferCalendar";

// The page as the server sends it: the day form, and the island inside the
// POST form with its fallback.
function page(): HTMLElement {
  document.body.innerHTML = `
    <form id="transfer-day" method="get"><input type="date" name="date"></form>
    <form method="post" action="/orders/aqua/1/transfer">
      <div data-island="calendar">
        <div data-island-fallback><input type="hidden" name="date" value="2026-11-23"><input type="radio" name="sessionId" value="old"></div>
        <div data-island-root></div>
      </div>
      <div class="actions"><button type="submit">Готово</button></div>
    </form>`;
  return document.querySelector<HTMLElement>("[data-island-root]")!;
}

const dayProps: DayMoveProps = {
  kind: "day", min: "2026-11-23", max: "2026-12-23", label: "Дата",
  name: "date", value: "2026-11-24", url: "/orders/aqua/1/transfer", original: "2026-11-24",
};

/** What the server says of a stay, as views.StayTexts. */
const texts = { unavailable: "нет номеров", price: "цена не та", same: "те же даты", checkIn: "Заезд", checkOut: "Выезд" };

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

// Renders the island and lets its first day's list arrive: the list is asked
// for once the island is drawn, and drawn when the answer has come.
async function show(ui: ReactElement, container: HTMLElement): Promise<void> {
  await act(async () => {
    render(ui, { container });
  });
  await act(() => new Promise((done) => setTimeout(done, 0)));
}

function answer(body: unknown, ok = true) {
  fetchMock.mockResolvedValueOnce({ ok, status: ok ? 200 : 422, json: () => Promise.resolve(body) });
}

describe("TransferCalendar, one day", () => {
  it("takes over the day field and shows the day's sessions from the same URL", async () => {
    const container = page();
    answer({ date: "2026-11-24", legend: "Сеансы на 24.11.2026", field: "sessionId", empty: "Нет", choices: [
      { value: "S1", title: "Дневной 10:00–16:00", lines: ["Свободных мест: 40"] },
      { value: "S2", title: "Вечерний 16:00–22:00", lines: null },
      { value: "S3", title: "Ночной 22:00–23:00", lines: ["Свободных мест: 0"], disabled: "На этом сеансе не хватает мест для всех билетов." },
    ] });
    await show(<TransferCalendar {...dayProps} />, container);
    expect(fetchMock).toHaveBeenCalledWith("/orders/aqua/1/transfer?date=2026-11-24", expect.objectContaining({ headers: { Accept: "application/json" } }));
    // the form of a typed day stays, with whatever was typed there
    expect(document.querySelector<HTMLElement>("#transfer-day")!.hidden).toBe(false);
    expect(document.querySelectorAll("[data-island-fallback] input[name]")).toHaveLength(0);
    expect(screen.getByText("Сеансы на 24.11.2026")).toBeTruthy();
    expect(screen.getByLabelText(/Ночной/)).toHaveProperty("disabled", true);
    expect(screen.getByText("На этом сеансе не хватает мест для всех билетов.")).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/Дневной/));
    const form = new FormData(document.querySelector<HTMLFormElement>('form[method="post"]')!);
    expect(form.getAll("date")).toEqual(["2026-11-24"]);
    expect(form.getAll("sessionId")).toEqual(["S1"]);
  });

  it("shows the server's list of the first day without asking for it, and asks for the next day's", async () => {
    const container = page();
    const first = { date: "2026-11-24", legend: "Сеансы на 24.11.2026", field: "sessionId", empty: "Нет", choices: [
      { value: "S1", title: "Дневной 10:00–16:00", lines: ["Свободных мест: 40"] },
    ] };
    await show(<TransferCalendar {...dayProps} original={undefined} first={first} />, container);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByText("Сеансы на 24.11.2026")).toBeTruthy();
    expect(screen.getByLabelText(/Дневной/)).toBeTruthy();
    answer({ ...first, date: "2026-11-26", legend: "Сеансы на 26.11.2026" });
    const day = Array.from(container.querySelectorAll<HTMLElement>(".flatpickr-day:not(.prevMonthDay):not(.nextMonthDay)")).find((el) => el.textContent?.startsWith("26"));
    await act(async () => {
      fireEvent.click(day!);
    });
    expect(fetchMock).toHaveBeenCalledWith("/orders/aqua/1/transfer?date=2026-11-26", expect.anything());
    expect(screen.getByText("Сеансы на 26.11.2026")).toBeTruthy();
  });

  it("says when there is nothing, and when the list did not load", async () => {
    const container = page();
    answer({ date: "2026-11-24", legend: "Занятия на 24.11.2026", field: "lessonId", empty: "Нет доступных занятий", choices: [] });
    await show(<TransferCalendar {...dayProps} original={undefined} />, container);
    expect(screen.getByText("Нет доступных занятий")).toBeTruthy();
  });

  // A lesson's page: each lesson a 'Выбрать' of its own, no other submit.
  function lessonPage(): HTMLElement {
    document.body.innerHTML = `
      <form id="transfer-day" method="get"><input type="date" name="date"></form>
      <form method="post" action="/orders/glk/1/transfer">
        <div data-island="calendar">
          <div data-island-fallback><input type="hidden" name="date" value="2026-11-23"><button type="submit" name="lessonId" value="old">Выбрать</button></div>
          <div data-island-root></div>
        </div>
      </form>`;
    return document.querySelector<HTMLElement>("[data-island-root]")!;
  }

  it("picks a lesson with 'Выбрать' and shows 'Готово' only then", async () => {
    const container = lessonPage();
    answer({ date: "2026-11-24", legend: "Занятия на 24.11.2026", field: "lessonId", empty: "Нет доступных занятий", pick: "Выбрать", choices: [
      { value: "L1", title: "10:00 · Горные лыжи", lines: null },
      { value: "L2", title: "16:00 · Горные лыжи", lines: null },
    ] });
    await show(<TransferCalendar {...dayProps} url="/orders/glk/1/transfer" original={undefined} done="Готово" />, container);
    expect(document.querySelectorAll("[data-island-fallback] [name]")).toHaveLength(0);
    expect(screen.queryByRole("button", { name: "Готово" })).toBeNull();
    const picks = within(container).getAllByRole("button", { name: /^Выбрать / });
    expect(picks).toHaveLength(2);
    // each named with its lesson, not just 'Выбрать'
    expect(within(container).getByRole("button", { name: "Выбрать 16:00 · Горные лыжи" })).toBe(picks[1]);
    fireEvent.click(picks[1]);
    expect(picks[1].getAttribute("aria-pressed")).toBe("true");
    const done = screen.getByRole("button", { name: "Готово" });
    expect(done.getAttribute("type")).toBe("submit");
    const form = new FormData(document.querySelector<HTMLFormElement>('form[method="post"]')!);
    expect(form.getAll("date")).toEqual(["2026-11-24"]);
    expect(form.getAll("lessonId")).toEqual(["L2"]);
  });

  it("offers no 'Готово' beside 'Нет доступных занятий'", async () => {
    const container = lessonPage();
    answer({ date: "2026-11-24", legend: "Занятия на 24.11.2026", field: "lessonId", empty: "Нет доступных занятий", pick: "Выбрать", choices: [] });
    await show(<TransferCalendar {...dayProps} original={undefined} choice="L1" done="Готово" />, container);
    expect(screen.getByText("Нет доступных занятий")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Готово" })).toBeNull();
  });

  it("offers the page's button only for a day with a session to choose", async () => {
    const container = page();
    answer({ date: "2026-11-24", legend: "Сеансы на 24.11.2026", field: "sessionId", empty: "На эту дату нет подходящих сеансов", choices: [] });
    await show(<TransferCalendar {...dayProps} />, container);
    expect(screen.getByText("На эту дату нет подходящих сеансов")).toBeTruthy();
    expect(submit().hidden).toBe(true);
  });

  it("keeps working when the fetch fails", async () => {
    const container = page();
    fetchMock.mockRejectedValueOnce(new TypeError("network"));
    await show(<TransferCalendar {...dayProps} />, container);
    expect(screen.getByText(LOAD_FAILED)).toBeTruthy();
  });

  it("gives the page back when unmounted", async () => {
    const container = page();
    answer({ date: "2026-11-24", legend: "", field: "sessionId", empty: "", choices: [] });
    let unmount = () => {};
    await act(async () => {
      unmount = render(<TransferCalendar {...dayProps} />, { container }).unmount;
    });
    unmount();
    expect(document.querySelectorAll("[data-island-fallback] input[name]")).toHaveLength(2);
  });
});

describe("TransferCalendar, a day for the slot picker", () => {
  it("fills in the page's date field and says it changed, without fetching", async () => {
    document.body.innerHTML = `
      <div data-island="calendar">
        <div data-island-fallback><form id="rent-day" method="get"><input type="date" id="date" name="date" value="2026-11-24"></form></div>
        <div data-island-root></div>
      </div>`;
    const container = document.querySelector<HTMLElement>("[data-island-root]")!;
    const field = document.querySelector<HTMLInputElement>("#date")!;
    const changed: string[] = [];
    field.addEventListener("change", () => changed.push(field.value));
    await show(<TransferCalendar kind="rent" min="2026-11-23" max="2026-12-23" label="День" value="2026-11-24" target="#rent-day input[name=date]" />, container);
    expect(field.name).toBe("date");
    const day = Array.from(container.querySelectorAll<HTMLElement>(".flatpickr-day:not(.prevMonthDay):not(.nextMonthDay)")).find((el) => el.textContent?.startsWith("26"));
    await act(async () => {
      fireEvent.click(day!);
    });
    expect(changed).toEqual(["2026-11-26"]);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByText(/День: 26\.11\.2026/)).toBeTruthy();
  });
  it("opens on the month the server's month showed, else on the chosen day's", async () => {
    document.body.innerHTML = `<div data-island="calendar"><div data-island-root></div></div>`;
    const container = document.querySelector<HTMLElement>("[data-island-root]")!;
    const first = () => document.querySelectorAll<HTMLElement & { dateObj?: Date }>(".flatpickr-day:not(.prevMonthDay):not(.nextMonthDay)")[0].dateObj?.getMonth();
    const { unmount } = render(<TransferCalendar kind="rent" min="2026-11-23" max="2027-01-23" today="2026-11-23" label="День" value="2026-12-20" month="2026-11-01" target="#none" />, { container });
    await act(() => new Promise((done) => setTimeout(done, 0)));
    expect(first()).toBe(10); // November, as the server showed it
    expect(screen.getByText(/День: 20\.12\.2026/)).toBeTruthy();
    expect(container.querySelector(".flatpickr-day.selected")?.getAttribute("aria-label")).toBe("20 декабря 2026, воскресенье");
    unmount();
    document.body.innerHTML = `<div data-island="calendar"><div data-island-root></div></div>`;
    await show(<TransferCalendar kind="rent" min="2026-11-23" max="2027-01-23" today="2026-11-23" label="День" value="2026-12-20" target="#none" />, document.querySelector<HTMLElement>("[data-island-root]")!);
    expect(first()).toBe(11); // the chosen day's December
  });
  it("draws the days once when the booking is in the window's first month", async () => {
    document.body.innerHTML = `<div data-island="calendar"><div data-island-root></div></div>`;
    const container = document.querySelector<HTMLElement>("[data-island-root]")!;
    const made: Element[] = []; // every element made while the calendar draws
    const create = document.createElement.bind(document);
    const spy = vi.spyOn(document, "createElement").mockImplementation((tag: string, options?: ElementCreationOptions) => {
      const el = create(tag, options);
      made.push(el);
      return el;
    });
    try {
      await show(<TransferCalendar kind="rent" min="2026-11-23" max="2026-12-23" today="2026-11-23" label="День" value="2026-11-28" target="#none" />, container);
    } finally {
      spy.mockRestore();
    }
    expect(document.querySelector(".flatpickr-day.selected")?.textContent).toBe("28");
    const drawn = made.filter((el) => el.classList.contains("flatpickr-day")).length;
    expect(drawn).toBe(document.querySelectorAll(".flatpickr-day").length);
  });
});

const submit = () => document.querySelector<HTMLButtonElement>('.actions > button[type="submit"]')!;

/** The calendar's day of November 2026. */
function day(n: number): HTMLElement {
  return Array.from(document.querySelectorAll<HTMLElement & { dateObj?: Date }>(".flatpickr-day")).find(
    (el) => el.dateObj?.getDate() === n && el.dateObj.getMonth() === 10,
  )!;
}

async function tap(n: number): Promise<void> {
  await act(async () => {
    fireEvent.mouseOver(day(n)); // as a pointer does before it clicks
    fireEvent.click(day(n));
  });
}

describe("TransferCalendar, hotel range", () => {
  const days = ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"].map((date, i) => ({
    date, vacant: i === 2 ? 0 : 3, family: 1, price: 16300, label: "16 300 ₽",
  }));
  const props: StayProps = {
    kind: "stay", min: "2026-11-23", max: "2026-11-27", label: "Даты проживания", stay: ["", ""],
    start: "dateIn", end: "dateOut", days, rooms: 1, family: 1, amount: 32600, texts,
  };

  it("shows 'Готово' only with both dates, and posts them", async () => {
    const container = page();
    await show(<TransferCalendar {...props} />, container);
    expect(screen.getByText("Готово").hidden).toBe(true);
    document.body.innerHTML = "";
    const c2 = page();
    await act(async () => {
      render(<TransferCalendar {...props} from="2026-11-23" to="2026-11-25" />, { container: c2 });
    });
    expect(screen.getByText("Готово").hidden).toBe(false);
    const form = new FormData(document.querySelector<HTMLFormElement>('form[method="post"]')!);
    expect(form.get("dateIn")).toBe("2026-11-23");
    expect(form.get("dateOut")).toBe("2026-11-25");
    expect(screen.getByText(/ночей: 2/)).toBeTruthy();
  });

  it("says at once when a night is full or the price differs", async () => {
    const container = page();
    await show(<TransferCalendar {...props} from="2026-11-24" to="2026-11-26" />, container);
    expect(screen.getByText("нет номеров")).toBeTruthy();
    document.body.innerHTML = "";
    const c2 = page();
    await act(async () => {
      render(<TransferCalendar {...props} from="2026-11-23" to="2026-11-24" />, { container: c2 });
    });
    expect(screen.getByText("цена не та")).toBeTruthy();
  });

  // A range opened with a full night in it (a stay whose first night is
  // full now) cannot be sent; a click on an earlier check-in is taken.
  it("takes a new check-in before a chosen full night", async () => {
    const container = page();
    await show(<TransferCalendar {...props} from="2026-11-25" to="2026-11-26" />, container);
    expect(screen.getByText("нет номеров")).toBeTruthy();
    expect(submit().hidden && submit().disabled).toBe(true);
    await tap(24);
    expect(screen.getByText(/Заезд: 24\.11\.2026, Выезд: —/)).toBeTruthy();
    expect(submit().hidden).toBe(true);
  });

  // Every tap answers: one that cannot be taken says why and what to do,
  // and keeps what was chosen.
  it("says why a tap cannot be taken", async () => {
    const container = page();
    await show(<TransferCalendar {...props} />, container);
    expect(day(25).classList.contains("cal-off")).toBe(true);
    expect(day(25).classList.contains("flatpickr-disabled")).toBe(false);
    await tap(25);
    expect(screen.getByRole("status").textContent).toBe("Ночь на 25.11.2026 занята: заезд в этот день невозможен. Выберите другой день заезда.");
    expect(screen.getByText(/Заезд: —, Выезд: —/)).toBeTruthy();
    await tap(23);
    expect(screen.getByRole("status").textContent).toBe("Заезд 23.11.2026. Теперь выберите день выезда.");
    await tap(27); // past the full night of the 25th
    expect(screen.getByRole("status").textContent).toBe(
      "Ночь на 25.11.2026 занята, поэтому выезд 27.11.2026 невозможен. Выберите выезд не позже 25.11.2026 или нажмите на день заезда 23.11.2026, чтобы выбрать другой.",
    );
    expect(screen.getByText(/Заезд: 23\.11\.2026, Выезд: —/)).toBeTruthy();
    expect(submit().hidden).toBe(true);
    await tap(25); // a full night's morning is a check-out
    expect(screen.getByText(/Заезд: 23\.11\.2026, Выезд: 25\.11\.2026/)).toBeTruthy();
    expect(submit().hidden || submit().disabled).toBe(false);
  });

  it("after a check-in, takes an earlier day beyond a full night as the new check-in", async () => {
    const container = page();
    await show(<TransferCalendar {...props} />, container);
    await tap(26);
    await tap(24);
    expect(screen.getByText(/Заезд: 24\.11\.2026, Выезд: —/)).toBeTruthy();
  });

  it("offers 'Готово' only for a range the rules accept", async () => {
    const container = page();
    await show(<TransferCalendar {...props} stay={["2026-11-23", "2026-11-25"]} texts={{ ...props.texts, same: "те же даты" }} />, container);
    await tap(23);
    await tap(24); // one night: another price
    expect(screen.getByText("цена не та")).toBeTruthy();
    expect(submit().hidden && submit().disabled).toBe(true);
    await tap(23);
    await tap(25); // the stay's own dates
    expect(screen.getByText("те же даты")).toBeTruthy();
    expect(submit().disabled).toBe(true);
  });

  it("rings the resort's today, not the phone's", async () => {
    const container = page();
    await show(<TransferCalendar {...props} today="2026-11-24" />, container);
    const today = document.querySelectorAll<HTMLElement & { dateObj?: Date }>(".flatpickr-day.today");
    expect(Array.from(today).map((el) => el.dateObj?.getDate())).toEqual([24]);
  });

  it("shows the nights' prices in the calendar", async () => {
    const container = page();
    await show(<TransferCalendar {...props} />, container);
    expect(document.querySelectorAll(".cal-note").length).toBeGreaterThan(0);
    expect(document.querySelector(".cal-note")!.textContent).toBe("16,3к");
  });
});

describe("TransferCalendar, by keyboard and screen reader", () => {
  const days = ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"].map((date, i) => ({
    date, vacant: i === 2 ? 0 : 3, family: 1, price: 16300, label: "16 300 ₽",
  }));
  const hotel: StayProps = {
    kind: "stay", min: "2026-11-23", max: "2026-11-27", label: "Даты проживания", texts,
    start: "dateIn", end: "dateOut", days, rooms: 1, family: 1, amount: 32600, stay: ["2026-11-23", "2026-11-24"],
  };
  const key = (k: string) => act(async () => {
    fireEvent.keyDown(document.activeElement!, { key: k });
  });
  const focused = () => document.activeElement?.getAttribute("aria-label");

  it("names each night in Russian with its price or 'нет мест', and marks the stay", async () => {
    await show(<TransferCalendar {...hotel} />, page());
    expect(day(24).getAttribute("role")).toBe("button");
    expect(day(24).getAttribute("aria-label")).toBe("24 ноября 2026, вторник, 16 300 ₽, сейчас в заказе");
    expect(day(25).getAttribute("aria-label")).toBe("25 ноября 2026, среда, нет мест");
    expect(day(25).getAttribute("aria-disabled")).toBe("true");
    expect(day(26).getAttribute("aria-disabled")).toBeNull();
    expect(day(23).classList.contains("cal-booked")).toBe(true);
    expect(day(26).classList.contains("cal-booked")).toBe(false);
    expect(screen.getByText(/сейчас в заказе/)).toBeTruthy();
    // the days of other months in the grid's gaps are not read
    expect(document.querySelector(".prevMonthDay")?.getAttribute("aria-hidden")).toBe("true");
  });

  it("chooses a range with the arrows and Enter, one day in the Tab order", async () => {
    await show(<TransferCalendar {...hotel} today="2026-11-23" />, page());
    const stops = document.querySelectorAll<HTMLElement>('.flatpickr-day[tabindex="0"]');
    expect(stops).toHaveLength(1);
    expect(stops[0]).toBe(day(23)); // today, nothing chosen yet
    expect(document.querySelector(".flatpickr-prev-month")?.getAttribute("role")).toBe("button");
    await act(async () => stops[0].focus());
    await key("ArrowRight");
    expect(focused()).toMatch(/^24 ноября 2026, вторник/);
    await key("Enter");
    expect(screen.getByText(/Заезд: 24\.11\.2026, Выезд: —/)).toBeTruthy();
    expect(day(24).getAttribute("aria-pressed")).toBe("true");
    expect(focused()).toMatch(/^24 ноября/); // kept on the day drawn again
    await key("ArrowRight"); // the full night's morning: a check-out
    await key(" ");
    expect(screen.getByText(/Заезд: 24\.11\.2026, Выезд: 25\.11\.2026/)).toBeTruthy();
    expect([24, 25, 26].map((n) => day(n).getAttribute("aria-pressed"))).toEqual(["true", "true", "false"]);
    expect(day(23).getAttribute("aria-pressed")).toBe("false");
    // End: the week's Sunday, kept within the window's last day
    await key("End");
    expect(focused()).toMatch(/^27 ноября 2026, пятница/);
    await key("Home");
    expect(focused()).toMatch(/^23 ноября 2026, понедельник/);
  });
});

describe("TransferCalendar, what the customer chose before it came", () => {
  // The page as the server sends it: the day form and the sessions inside the fallback.
  function serverPage(): HTMLElement {
    document.body.innerHTML = `
      <form method="post" action="/orders/aqua/1/transfer">
        <div data-island="calendar">
          <div data-island-fallback>
            <div id="transfer-day"><input type="date" name="date" value="2026-11-24"></div>
            <fieldset><input type="radio" name="sessionId" value="S1"><input type="radio" name="sessionId" value="S2"></fieldset>
          </div>
          <div data-island-root></div>
        </div>
        <div class="actions"><button type="submit">Перенести билеты</button></div>
      </form>`;
    return document.querySelector<HTMLElement>("[data-island-root]")!;
  }
  const first = { date: "2026-11-24", legend: "Сеансы на 24.11.2026", field: "sessionId", empty: "Нет", choices: [
    { value: "S1", title: "Дневной 10:00–16:00", lines: null },
    { value: "S2", title: "Вечерний 16:00–22:00", lines: null },
  ] };

  it("keeps a session chosen in the server's form", async () => {
    const container = serverPage();
    document.querySelector<HTMLInputElement>('input[value="S2"]')!.checked = true;
    await show(<TransferCalendar {...dayProps} first={first} />, container);
    expect(screen.getByLabelText(/Вечерний/)).toHaveProperty("checked", true);
    const form = new FormData(document.querySelector<HTMLFormElement>("form")!);
    expect(form.getAll("sessionId")).toEqual(["S2"]);
    expect(form.getAll("date")).toEqual(["2026-11-24"]);
  });

  it("takes the check-in chosen in the server's month and asks for the check-out", async () => {
    const container = page();
    const days = ["2026-11-23", "2026-11-24"].map((date) => ({ date, vacant: 3, family: 1, price: 16300, label: "16 300 ₽" }));
    const range: StayProps = { kind: "stay", min: "2026-11-23", max: "2026-11-25", label: "Даты", stay: ["", ""], start: "dateIn", end: "dateOut", days, rooms: 1, family: 0, amount: 32600, texts };
    const { unmount } = render(<TransferCalendar {...range} from="2026-11-23" />, { container });
    await act(() => new Promise((done) => setTimeout(done, 0)));
    expect(screen.getByText("Заезд 23.11.2026. Теперь выберите день выезда.")).toBeTruthy();
    expect(screen.getByText(/Заезд: 23\.11\.2026, Выезд: —/)).toBeTruthy();
    unmount();
    await show(<TransferCalendar {...range} from="2026-11-23" to="2026-11-25" />, page());
    expect(screen.getByText(/Заезд: 23\.11\.2026, Выезд: 25\.11\.2026/)).toBeTruthy();
  });
});
