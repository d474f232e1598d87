import { describe, expect, it } from "vitest";
import { rubles, thousands } from "./money";

describe("rubles", () => {
  it("writes roubles as the server does", () => {
    // The cases of views.TestMoneyAndDates.
    expect(rubles(0)).toBe("0\u00a0₽");
    expect(rubles(950)).toBe("950\u00a0₽");
    expect(rubles(1500)).toBe("1\u202f500\u00a0₽");
    expect(rubles(1234567.5)).toBe("1\u202f234\u202f567,50\u00a0₽");
    expect(rubles(-2200)).toBe("−2\u202f200\u00a0₽");
  });

  it("rounds to the kopeck", () => {
    expect(rubles(0.1 + 0.2)).toBe("0,30\u00a0₽");
    expect(rubles(999.999)).toBe("1\u202f000\u00a0₽");
  });
});

describe("thousands", () => {
  it("writes thousands to one decimal, with a comma", () => {
    expect(thousands(16300)).toBe("16,3");
    expect(thousands(16000)).toBe("16");
    expect(thousands(950)).toBe("1");
    expect(thousands(1150)).toBe("1,2");
    expect(thousands(1234500)).toBe("1\u202f234,5");
  });
});
