// The island's rules against the server's cases (gateway/testdata), so the
// two cannot drift.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { checkAquaDate, click, complete, hotelDayAvailable, nights, noPick, parseDay, type RangePick } from "./rules";
import { checkOutAllowed } from "./TransferCalendar";

type Cases = {
  aquaDates: { name: string; now: string; original: string; candidate: string; want: string }[];
  hotelDays: { name: string; day: { vacant: number; family: number }; rooms: number; family: number; want: boolean }[];
  rangePick: { click: string; start: string; end: string; complete: boolean; why: string }[];
  parseDay: { in: string; want: string }[];
};

const cases: Cases = JSON.parse(
  // Vitest runs in islands/ (make vitest, npm test).
  readFileSync(resolve(process.cwd(), "../gateway/testdata/transfer_cases.json"), "utf8"),
);

describe("shared transfer cases", () => {
  it.each(cases.aquaDates)("water park: $name", (c) => {
    expect(checkAquaDate(c.original, c.candidate, c.now.slice(0, 10))).toBe(c.want);
  });
  it.each(cases.hotelDays)("hotel night: $name", (c) => {
    expect(hotelDayAvailable(c.day, c.rooms, c.family)).toBe(c.want);
  });
  it("hotel range, click by click", () => {
    let p: RangePick = noPick;
    for (const s of cases.rangePick) {
      p = click(p, s.click);
      expect({ ...p, complete: complete(p) }, s.why).toEqual({ start: s.start, end: s.end, complete: s.complete });
    }
  });
  it.each(cases.parseDay)("parseDay($in)", (c) => {
    expect(parseDay(c.in)).toBe(c.want);
  });
});

describe("range helpers", () => {
  it("counts the nights", () => {
    expect(nights({ start: "2026-11-29", end: "2026-12-02" })).toEqual(["2026-11-29", "2026-11-30", "2026-12-01"]);
    expect(nights({ start: "2026-11-29", end: "" })).toEqual([]);
  });
  it("allows a check-out morning on a full day when the nights before it are free", () => {
    const free = (d: string) => d !== "2026-11-25";
    expect(checkOutAllowed({ start: "2026-11-23", end: "" }, "2026-11-25", free)).toBe(true);
    expect(checkOutAllowed({ start: "2026-11-23", end: "" }, "2026-11-26", free)).toBe(false);
    expect(checkOutAllowed({ start: "2026-11-23", end: "" }, "2026-11-22", free)).toBe(false);
    expect(checkOutAllowed(noPick, "2026-11-25", free)).toBe(false);
  });
});
