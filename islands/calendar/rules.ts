// The transfer rules the calendar mirrors for instant feedback.
// The server's are the truth (gateway/rules.go); both are tested against the
// same cases (gateway/testdata/transfer_cases.json), so they cannot drift.
// Days are the resort's calendar days as "yyyy-mm-dd"; the server gives
// "today" (min), so the browser's own clock and zone never matter.

export type Day = string;

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const DMY = /^(\d{2})\.(\d{2})\.(\d{4})$/;

function utc(d: Day): Date {
  const [y, m, dd] = d.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, dd));
}

function fmt(t: Date): Day {
  return t.toISOString().slice(0, 10);
}

/** Reads ГГГГ-ММ-ДД or ДД.ММ.ГГГГ; "" when it is not a real day. */
export function parseDay(s: string): Day | "" {
  const t = s.trim();
  let y: number, m: number, d: number;
  let match = ISO.exec(t);
  if (match) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = DMY.exec(t))) [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else return "";
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? fmt(date) : "";
}

export function addDays(d: Day, n: number): Day {
  const t = utc(d);
  t.setUTCDate(t.getUTCDate() + n);
  return fmt(t);
}

export function isWeekend(d: Day): boolean {
  const wd = utc(d).getUTCDay();
  return wd === 0 || wd === 6;
}

/** "21.11.2026" */
export function showDay(d: Day): string {
  return d ? `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}` : "";
}

/** The water park's window: today to 30 days ahead. */
export function aquaWindow(today: Day): [Day, Day] {
  return [today, addDays(today, 30)];
}

export type AquaVerdict = "" | "window" | "weekdayOnly" | "weekendOnly";

/** Whether tickets for original may move to candidate (CheckAquaDate). */
export function checkAquaDate(original: Day, candidate: Day, today: Day): AquaVerdict {
  const [from, to] = aquaWindow(today);
  if (candidate < from || candidate > to) return "window";
  const weekend = isWeekend(original);
  if (weekend && !isWeekend(candidate)) return "weekendOnly";
  if (!weekend && isWeekend(candidate)) return "weekdayOnly";
  return "";
}

/** Whether a night has the order's rooms free (HotelDayAvailable). */
export function hotelDayAvailable(day: { vacant: number; family: number }, rooms: number, family: number): boolean {
  return day.vacant >= rooms && day.family >= family;
}

/** The hotel calendar's selection (RangePick). */
export type RangePick = { start: Day | ""; end: Day | "" };

export const noPick: RangePick = { start: "", end: "" };

/** The first click sets the start, a later day the end, an earlier day
 *  starts again from it, the start clicked twice clears it, and a click on a
 *  complete range starts a new one. */
export function click(p: RangePick, d: Day): RangePick {
  if (!p.start || p.end) return { start: d, end: "" };
  if (d === p.start) return noPick;
  if (d < p.start) return { start: d, end: "" };
  return { start: p.start, end: d };
}

export function complete(p: RangePick): boolean {
  return p.start !== "" && p.end !== "";
}

/** The nights of a range: start up to, not including, end. */
export function nights(p: RangePick): Day[] {
  const out: Day[] = [];
  if (!complete(p)) return out;
  for (let d = p.start; d < p.end; d = addDays(d, 1)) out.push(d);
  return out;
}

/** What a tap on a hotel day did: the new selection and what to tell the
 *  customer; a tap that cannot be taken keeps the selection and says why
 *  and what to do instead. */
export type HotelTap = { pick: RangePick; say: string; refused: boolean };

/** The first of a range's nights that is not free, or "". */
export function firstFull(p: RangePick, free: (d: Day) => boolean): Day | "" {
  return nights(p).find((d) => !free(d)) ?? "";
}

/** A tap on day d of the hotel calendar, as click takes it, unless it
 *  cannot be taken: a check-in must be a free night, and a check-out must
 *  have every night before it free (its own morning need not be). */
export function hotelTap(p: RangePick, d: Day, free: (d: Day) => boolean): HotelTap {
  const checkIn = !p.start || p.end !== "" || d < p.start;
  if (checkIn && !free(d)) {
    return { pick: p, say: `Ночь на ${showDay(d)} занята: заезд в этот день невозможен. Выберите другой день заезда.`, refused: true };
  }
  const full = checkIn ? "" : firstFull({ start: p.start, end: d }, free);
  if (full) {
    return {
      pick: p,
      say:
        `Ночь на ${showDay(full)} занята, поэтому выезд ${showDay(d)} невозможен. ` +
        `Выберите выезд не позже ${showDay(full)} или нажмите на день заезда ${showDay(p.start)}, чтобы выбрать другой.`,
      refused: true,
    };
  }
  const next = click(p, d);
  let say = `Заезд ${showDay(next.start)}. Теперь выберите день выезда.`;
  if (!next.start) say = "Заезд снят. Выберите день заезда.";
  else if (next.end) say = `Выезд ${showDay(next.end)}.`;
  return { pick: next, say, refused: false };
}
