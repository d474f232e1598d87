// What the calendar says and how the keyboard moves in it: a day is named as
// a person says it in Russian ("2 декабря 2026, среда", the month in the
// genitive), and the keys move a day, a week, to the week's ends, a month
// or a year.
import { addDays, type Day } from "./rules";

const GENITIVE = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"];
const NOMINATIVE = ["Январь", "Февраль", "Март", "Апрель", "Май", "Июнь", "Июль", "Август", "Сентябрь", "Октябрь", "Ноябрь", "Декабрь"];
const WEEKDAYS = ["воскресенье", "понедельник", "вторник", "среда", "четверг", "пятница", "суббота"];

function parts(d: Day): [number, number, number] {
  return [Number(d.slice(0, 4)), Number(d.slice(5, 7)), Number(d.slice(8, 10))];
}

function weekday(d: Day): number {
  const [y, m, dd] = parts(d);
  return new Date(Date.UTC(y, m - 1, dd)).getUTCDay();
}

/** "2 декабря 2026, среда". */
export function dayName(d: Day): string {
  const [y, m, dd] = parts(d);
  return `${dd} ${GENITIVE[m - 1]} ${y}, ${WEEKDAYS[weekday(d)]}`;
}

/** A day's accessible name: its name, then what is said of it
 *  ("2 декабря 2026, среда, 16 300 ₽"); empty parts are left out. */
export function dayLabel(d: Day, ...notes: (string | undefined)[]): string {
  return [dayName(d), ...notes].filter(Boolean).join(", ");
}

/** A month's caption: "Декабрь 2026"; month is 0-11 and may run past a year. */
export function monthName(year: number, month: number): string {
  const y = year + Math.floor(month / 12);
  return `${NOMINATIVE[((month % 12) + 12) % 12]} ${y}`;
}

/** The same day n months on, or the month's last day when it is shorter
 *  (31 января + 1 → 28 or 29 февраля). */
export function addMonths(d: Day, n: number): Day {
  const [y, m, dd] = parts(d);
  const first = new Date(Date.UTC(y, m - 1 + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(dd, last));
  return first.toISOString().slice(0, 10);
}

/** Where a key moves the focused day, or null for a key that does not move
 *  it: arrows a day or a week, Home and End the week's Monday and Sunday,
 *  Page Up and Page Down a month (with Shift a year). */
export function moveKey(key: string, shift: boolean, d: Day): Day | null {
  switch (key) {
    case "ArrowLeft":
      return addDays(d, -1);
    case "ArrowRight":
      return addDays(d, 1);
    case "ArrowUp":
      return addDays(d, -7);
    case "ArrowDown":
      return addDays(d, 7);
    case "Home":
      return addDays(d, -((weekday(d) + 6) % 7));
    case "End":
      return addDays(d, (7 - weekday(d)) % 7);
    case "PageUp":
      return addMonths(d, shift ? -12 : -1);
    case "PageDown":
      return addMonths(d, shift ? 12 : 1);
    default:
      return null;
  }
}

/** d kept within min and max. */
export function clampDay(d: Day, min: Day, max: Day): Day {
  return d < min ? min : d > max ? max : d;
}
