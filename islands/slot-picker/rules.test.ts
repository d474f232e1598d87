import cases from "../../gateway/testdata/slot_cases.json";
import { describe, expect, it } from "vitest";
import { MSG_BUSY, NONE, checkPeriod, formatHours, pickOf, tap, type Hour } from "./rules";

// The cases the server's rules are tested against (gateway/slot_cases_test.go).
type Cases = {
  schedules: Record<string, { cost: number; hours: [string, number][] }>;
  cases: { name: string; schedule: string; from: string; to: string; amount: number; want: string }[];
};
const shared = cases as unknown as Cases;

function hoursOf(list: [string, number][]): Hour[] {
  return list.map(([from, status]) => {
    const [h, m] = from.split(":").map(Number);
    return { from, to: `${String(h + 1).padStart(2, "0")}:${String(m).padStart(2, "0")}`, free: status === 0 };
  });
}

describe("checkPeriod mirrors gateway.CheckSlotMove", () => {
  it("reads the shared cases", () => expect(shared.cases.length).toBeGreaterThanOrEqual(10));
  for (const c of shared.cases) {
    it(c.name, () => {
      const s = shared.schedules[c.schedule];
      expect(checkPeriod(hoursOf(s.hours), s.cost, c.amount, c.from, c.to)).toBe(c.want);
    });
  }
});

describe("the picker's taps", () => {
  const s = shared.schedules.day; // 09 busy, 10 11 free, 12 busy, 13–16 free; 1000 ₽ an hour
  const hours = hoursOf(s.hours);
  const at = (from: string) => hours.findIndex((h) => h.from === from);

  it("takes the start, then the end", () => {
    let r = tap(NONE, at("13:00"), hours, s.cost, 3000);
    expect(r).toEqual({ pick: { start: at("13:00"), end: null }, error: "" });
    r = tap(r.pick, at("15:00"), hours, s.cost, 3000);
    expect(r).toEqual({ pick: { start: at("13:00"), end: at("15:00") }, error: "" });
  });

  it("never takes a busy hour", () => {
    expect(tap(NONE, at("12:00"), hours, s.cost, 1000)).toEqual({ pick: NONE, error: "" });
    const started = tap(NONE, at("10:00"), hours, s.cost, 1000).pick;
    expect(tap(started, at("12:00"), hours, s.cost, 1000).pick).toBe(started); // nothing happens
  });

  it("alerts a period over a busy hour at once, and starts over", () => {
    const started = tap(NONE, at("11:00"), hours, s.cost, 3000).pick;
    expect(tap(started, at("13:00"), hours, s.cost, 3000)).toEqual({ pick: NONE, error: MSG_BUSY });
  });

  it("alerts a wrong length with the hours the order holds", () => {
    const started = tap(NONE, at("13:00"), hours, s.cost, 3000).pick;
    expect(tap(started, at("14:00"), hours, s.cost, 3000).error).toBe(
      "Такой период невозможен, необходимо выбрать от и до, вам доступно: 3 ч.",
    );
  });

  it("starts again from an earlier hour, and after a complete choice", () => {
    const started = tap(NONE, at("14:00"), hours, s.cost, 2000).pick;
    expect(tap(started, at("13:00"), hours, s.cost, 2000).pick).toEqual({ start: at("13:00"), end: null });
    const done = { start: at("13:00"), end: at("14:00") };
    expect(tap(done, at("15:00"), hours, s.cost, 2000).pick).toEqual({ start: at("15:00"), end: null });
  });

  it("reads back a posted choice", () => {
    expect(pickOf(hours, "13:00", "16:00")).toEqual({ start: at("13:00"), end: at("15:00") });
    expect(pickOf(hours, "13:00", "")).toEqual({ start: at("13:00"), end: null });
    expect(pickOf(hours, "08:00", "10:00")).toEqual(NONE);
  });

  it("writes hours as the server does", () => {
    expect(formatHours(3)).toBe("3");
    expect(formatHours(2.5)).toBe("2,5");
  });
});
