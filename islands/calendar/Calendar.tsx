// A reusable calendar: flatpickr inline, Russian, Monday first, two months
// side by side when the window is wider than 736 px, one below.
// The transfer pages use it (TransferCalendar) and so can the rent move.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import flatpickr from "flatpickr";
import { Russian } from "flatpickr/dist/l10n/ru";
import "flatpickr/dist/flatpickr.min.css";
import "./calendar.css";
import type { Day } from "./rules";

export type CalendarProps = {
  mode: "single" | "range";
  min: Day;
  max: Day;
  /** the days shown as chosen */
  value: Day[];
  isDisabled?: (d: Day) => boolean;
  /** a click on a day that can be chosen */
  onDay: (d: Day) => void;
  /** a short note under the day (a price) and its full text for screen readers */
  note?: (d: Day) => { short: string; full: string } | undefined;
  label: string;
  /** the resort's today, marked as today whatever the phone's zone */
  today?: Day;
  /** the month shown first (the window's first), else the chosen day's */
  month?: Day;
  /** extra classes of a day; "cal-off" marks one that cannot be taken but
   *  still answers a tap (the caller says why) */
  mark?: (d: Day) => string;
};

export const WIDE = "(min-width: 737px)";

function iso(t: Date): Day {
  const m = String(t.getMonth() + 1).padStart(2, "0");
  const d = String(t.getDate()).padStart(2, "0");
  return `${t.getFullYear()}-${m}-${d}`;
}

/** flatpickr works in the browser's zone; a Day is taken at local noon so
 *  that no zone moves it to another date. */
function local(d: Day): Date {
  return new Date(`${d}T12:00:00`);
}

function useWide(): boolean {
  const query = typeof window !== "undefined" && window.matchMedia ? window.matchMedia(WIDE) : null;
  const [wide, setWide] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const on = () => setWide(query.matches);
    query.addEventListener("change", on);
    return () => query.removeEventListener("change", on);
  }, [query]);
  return wide;
}

/** Gives two months side by side their width at once. flatpickr sets it in
 *  the next animation frame; a busy phone may draw a frame before that, with
 *  the second month squeezed into the first's width, and then move it (a
 *  layout shift). Set here, in the task that drew the calendar, flatpickr's
 *  own step later changes nothing. */
function fitMonths(inst: flatpickr.Instance): void {
  if (inst.config.showMonths < 2 || !inst.daysContainer) return;
  const width = (inst.days.offsetWidth + 1) * inst.config.showMonths;
  inst.daysContainer.style.width = `${width}px`;
  inst.calendarContainer.style.width = `${width}px`;
}

export default function Calendar(props: CalendarProps) {
  const host = useRef<HTMLInputElement>(null);
  const fp = useRef<flatpickr.Instance | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const wide = useWide();

  // Drawn after React's commit, in a task of its own: building the days is
  // the island's heaviest step, and on a slow phone it and the commit in one
  // task would block the page for longer than a tap may wait. The calendar's
  // room is kept meanwhile (calendar.css), so nothing moves when it appears.
  useEffect(() => {
    const input = host.current;
    if (!input) return;
    let inst: flatpickr.Instance | null = null;
    const timer = window.setTimeout(() => {
      inst = flatpickr(input, {
        inline: true,
        locale: Russian, // Monday first
        mode: props.mode,
        showMonths: wide ? 2 : 1,
        // "Today" is the resort's, from the server: the phone's zone may
        // already (or still) be on another date.
        now: props.today ? local(props.today) : undefined,
        minDate: local(props.min),
        maxDate: local(props.max),
        defaultDate: latest.current.value.map(local),
        // A chosen day stays choosable: flatpickr drops a disabled day from
        // its selection, and a range left with one end refuses every day
        // beyond the next disabled one, so clicks there would do nothing
        // (a stay whose own first night is now full could not move earlier).
        disable: [(date: Date) => !latest.current.value.includes(iso(date)) && (latest.current.isDisabled?.(iso(date)) ?? false)],
        onChange(_dates, _str, self) {
          const clicked = self.latestSelectedDateObj;
          if (clicked) latest.current.onDay(iso(clicked));
        },
        onDayCreate(_dates, _str, _self, el: HTMLElement & { dateObj?: Date }) {
          if (!el.dateObj) return;
          const mark = latest.current.mark?.(iso(el.dateObj)) ?? "";
          if (mark) el.classList.add(...mark.split(" "));
          if (mark.split(" ").includes("cal-off")) el.setAttribute("aria-disabled", "true");
          const note = latest.current.note?.(iso(el.dateObj));
          if (!note) return;
          const span = document.createElement("span");
          span.className = "cal-note";
          span.textContent = note.short;
          el.append(span);
          el.setAttribute("aria-label", `${el.getAttribute("aria-label") ?? ""}, ${note.full}`);
        },
      });
      // flatpickr opens on the month of the first chosen day; another month
      // asked for is jumped to, the same one is not: a jump draws all the
      // month's days again, in the task that has just drawn them.
      const month = props.month ? local(props.month) : null;
      if (month && (month.getFullYear() !== inst.currentYear || month.getMonth() !== inst.currentMonth)) inst.jumpToDate(month);
      fitMonths(inst);
      fp.current = inst;
    }, 0);
    return () => {
      window.clearTimeout(timer);
      inst?.destroy();
      fp.current = null;
    };
    // The instance is made again only when its shape changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.mode, props.min, props.max, props.today, props.month, wide]);

  // The chosen days follow the props (a range is kept by the caller), also
  // after a tap the caller refused, which flatpickr had already taken; an
  // instance not drawn yet takes them when it is.
  const value = props.value.join(",");
  const drawn = useRef("");
  useLayoutEffect(() => {
    const inst = fp.current;
    if (!inst) return;
    if (inst.selectedDates.map(iso).join(",") !== value) {
      inst.setDate(value ? value.split(",").map(local) : [], false);
    }
    if (drawn.current !== value || props.mark) inst.redraw(); // which days can be chosen may depend on the choice
    drawn.current = value;
  });

  return (
    <div className="cal" data-months={wide ? 2 : 1} data-mode={props.mode}>
      <input ref={host} type="text" hidden aria-hidden="true" tabIndex={-1} aria-label={props.label} />
    </div>
  );
}
