import { describe, expect, it } from "vitest";
import { addMonths, clampDay, dayLabel, dayName, monthName, moveKey } from "./days";

describe("dayName", () => {
  it("says the day as a person does, the month in the genitive", () => {
    expect(dayName("2026-12-02")).toBe("2 декабря 2026, среда");
    expect(dayName("2027-01-01")).toBe("1 января 2027, пятница");
    expect(dayName("2026-11-29")).toBe("29 ноября 2026, воскресенье");
    expect(dayName("2028-02-29")).toBe("29 февраля 2028, вторник");
  });
  it("names every month in the genitive", () => {
    const months = Array.from({ length: 12 }, (_, i) => dayName(`2026-${String(i + 1).padStart(2, "0")}-10`).split(" ")[1]);
    expect(months).toEqual(["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"]);
  });
});

describe("dayLabel", () => {
  it("adds what is said of the day and skips what is not", () => {
    expect(dayLabel("2026-12-05", "нет мест")).toBe("5 декабря 2026, суббота, нет мест");
    expect(dayLabel("2026-12-05", undefined, "16\u202f300\u00a0₽", "")).toBe("5 декабря 2026, суббота, 16\u202f300\u00a0₽");
  });
});

describe("monthName", () => {
  it("is the month's caption, across the year's turn", () => {
    expect(monthName(2026, 11)).toBe("Декабрь 2026");
    expect(monthName(2026, 12)).toBe("Январь 2027");
  });
});

describe("moveKey", () => {
  const wed = "2026-12-02";
  it("moves a day, a week, to the week's Monday and Sunday", () => {
    expect(moveKey("ArrowLeft", false, wed)).toBe("2026-12-01");
    expect(moveKey("ArrowRight", false, "2026-12-31")).toBe("2027-01-01");
    expect(moveKey("ArrowUp", false, wed)).toBe("2026-11-25");
    expect(moveKey("ArrowDown", false, wed)).toBe("2026-12-09");
    expect(moveKey("Home", false, wed)).toBe("2026-11-30");
    expect(moveKey("End", false, wed)).toBe("2026-12-06");
    expect(moveKey("Home", false, "2026-11-30")).toBe("2026-11-30");
    expect(moveKey("End", false, "2026-12-06")).toBe("2026-12-06");
  });
  it("moves a month, a year with Shift, to a shorter month's last day", () => {
    expect(moveKey("PageDown", false, wed)).toBe("2027-01-02");
    expect(moveKey("PageUp", false, wed)).toBe("2026-11-02");
    expect(moveKey("PageDown", true, wed)).toBe("2027-12-02");
    expect(addMonths("2027-01-31", 1)).toBe("2027-02-28");
    expect(addMonths("2028-03-31", -1)).toBe("2028-02-29");
  });
  it("leaves other keys alone", () => {
    expect(moveKey("Enter", false, wed)).toBeNull();
    expect(moveKey("a", false, wed)).toBeNull();
  });
});

describe("clampDay", () => {
  it("keeps a day within the window", () => {
    expect(clampDay("2026-11-20", "2026-11-27", "2026-12-27")).toBe("2026-11-27");
    expect(clampDay("2027-01-20", "2026-11-27", "2026-12-27")).toBe("2026-12-27");
    expect(clampDay("2026-12-01", "2026-11-27", "2026-12-27")).toBe("2026-12-01");
  });
});
