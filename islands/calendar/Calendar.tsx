// A reusable calendar: flatpickr inline, Russian, Monday first, two months
// side by side when the window is wider than 736 px, one below.
// The transfer pages use it (TransferCalendar) and so can the rent move.
//
// Its days are buttons in a group per month, not the WAI-ARIA date grid:
// flatpickr draws a month's days as one flat list, with no rows to name.
// The month buttons and one day are in the Tab order (the day last focused,
// else the chosen one, today or the first that can be chosen); arrows,
// Home/End and Page Up/Down move between days and months, as in a date
// grid, and Enter or Space chooses. Each day is named as a person says it,
// with its note ("2 декабря 2026, среда, нет мест"), pressed when chosen
// and disabled when it cannot be chosen.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import flatpickr from "flatpickr";
import { Russian } from "flatpickr/dist/l10n/ru";
import "flatpickr/dist/flatpickr.min.css";
import "./calendar.css";
import type { Day } from "./rules";
import { clampDay, dayLabel, monthName, moveKey } from "./days";

export type CalendarProps = {
  mode: "single" | "range";
  min: Day;
  max: Day;
  /** the days shown as chosen */
  value: Day[];
  isDisabled?: (d: Day) => boolean;
  /** a click on a day that can be chosen */
  onDay: (d: Day) => void;
  /** a short note under the day (a price; "" for none) and its full text
   *  for screen readers */
  note?: (d: Day) => { short: string; full: string } | undefined;
  label: string;
  /** the resort's today, marked as today whatever the phone's zone */
  today?: Day;
  /** the month shown first (the server's month's first), else the chosen
   *  day's */
  month?: Day;
  /** extra classes of a day; "cal-off" marks one that cannot be taken but
   *  still answers a tap (the caller says why) */
  mark?: (d: Day) => string;
  /** the days the order holds now, marked as such */
  booked?: Day[];
};

/** What a booked day is called, in its name and in the legend. */
export const BOOKED = "сейчас в заказе";

export const WIDE = "(min-width: 737px)";

/** flatpickr's Russian, with the month list's name it lacks ("Month"). */
const RU = { ...Russian, monthAriaLabel: "Месяц" };

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

type DayEl = HTMLElement & { dateObj?: Date };

/** The keyboard's place in one calendar: the day that holds the Tab stop,
 *  and whether the focus is on a day (so that it follows the day when
 *  flatpickr draws the days again, which it does after every choice). */
type Focus = { day: Day; inside: boolean };

/** Gives the drawn days and month buttons their roles, names and states,
 *  and the Tab stop to one day; focuses it when asked, or when the focus
 *  was on a day that a redraw took away. */
function arrange(inst: flatpickr.Instance, f: Focus, p: CalendarProps, focus: boolean): void {
  const box = inst.calendarContainer;
  if (!box) return;
  const chosen = p.value.slice().sort();
  const isChosen = (d: Day) => (p.mode === "range" && chosen.length === 2 ? d >= chosen[0] && d <= chosen[1] : chosen.includes(d));
  const shown: DayEl[] = [];
  box.querySelectorAll<DayEl>(".flatpickr-day").forEach((el) => {
    el.tabIndex = -1;
    if (el.classList.contains("prevMonthDay") || el.classList.contains("nextMonthDay") || !el.dateObj) {
      // another month's days, kept invisible in the grid's gaps
      el.setAttribute("aria-hidden", "true");
      return;
    }
    const d = iso(el.dateObj);
    el.setAttribute("role", "button");
    el.setAttribute("aria-pressed", String(isChosen(d)));
    if (el.classList.contains("flatpickr-disabled") || el.classList.contains("cal-off")) el.setAttribute("aria-disabled", "true");
    else el.removeAttribute("aria-disabled");
    shown.push(el);
  });
  box.querySelectorAll<HTMLElement>(".dayContainer").forEach((el, i) => {
    el.setAttribute("role", "group");
    el.setAttribute("aria-label", monthName(inst.currentYear, inst.currentMonth + i));
  });
  for (const [el, name] of [
    [inst.prevMonthNav, "Предыдущий месяц"],
    [inst.nextMonthNav, "Следующий месяц"],
  ] as const) {
    if (!el) continue;
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", name);
    el.tabIndex = 0;
  }
  const at = (d: Day | undefined) => (d ? shown.find((el) => iso(el.dateObj as Date) === d) : undefined);
  const stop =
    at(f.day) ??
    at(chosen[0]) ??
    at(p.today) ??
    shown.find((el) => !el.hasAttribute("aria-disabled")) ??
    shown[0];
  if (!stop) return;
  stop.tabIndex = 0;
  f.day = iso(stop.dateObj as Date);
  const lost = !document.activeElement || document.activeElement === document.body;
  if (focus || (f.inside && lost)) stop.focus();
}

export default function Calendar(props: CalendarProps) {
  const host = useRef<HTMLInputElement>(null);
  const fp = useRef<flatpickr.Instance | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const focus = useRef<Focus>({ day: "", inside: false });
  const wide = useWide();

  // Drawn after React's commit, in a task of its own: building the days is
  // the island's heaviest step, and on a slow phone it and the commit in one
  // task would block the page for longer than a tap may wait. The calendar's
  // room is kept meanwhile (calendar.css), so nothing moves when it appears.
  useEffect(() => {
    const input = host.current;
    if (!input) return;
    let inst: flatpickr.Instance | null = null;
    let observer: MutationObserver | null = null;
    const f = focus.current;
    const tidy = (moveFocus: boolean) => inst && arrange(inst, f, latest.current, moveFocus);
    const timer = window.setTimeout(() => {
      inst = flatpickr(input, {
        inline: true,
        locale: RU, // Monday first
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
        onDayCreate(_dates, _str, _self, el: DayEl) {
          if (!el.dateObj) return;
          const d = iso(el.dateObj);
          const p = latest.current;
          const mark = p.mark?.(d) ?? "";
          if (mark) el.classList.add(...mark.split(" "));
          const booked = p.booked?.includes(d) ?? false;
          if (booked) el.classList.add("cal-booked");
          const note = p.note?.(d);
          if (note?.short) {
            // shown short, said in full by the day's name: a voice naming
            // the day by its number is understood
            const span = document.createElement("span");
            span.setAttribute("aria-hidden", "true");
            span.className = "cal-note";
            span.textContent = note.short;
            el.append(span);
          }
          el.setAttribute("aria-label", dayLabel(d, note?.full, booked ? BOOKED : ""));
        },
      });
      // flatpickr opens on the month of the first chosen day; the month
      // asked for instead (the one the server's month showed, which the
      // customer may have turned to). Another month is jumped to, the same
      // one is not: a jump draws all the month's days again, in the task
      // that has just drawn them.
      const month = props.month ? local(props.month) : null;
      if (month && (month.getFullYear() !== inst.currentYear || month.getMonth() !== inst.currentMonth)) inst.jumpToDate(month);
      fitMonths(inst);
      fp.current = inst;
      tidy(false);
      const box = inst.calendarContainer;
      // Whenever flatpickr draws the days again (a choice, another month).
      observer = new MutationObserver(() => tidy(false));
      observer.observe(inst.daysContainer as HTMLElement, { childList: true, subtree: true });
      box.addEventListener("keydown", onKey, true);
      box.addEventListener("focusin", onFocusIn);
      box.addEventListener("focusout", onFocusOut);
      document.addEventListener("pointerdown", onPointer, true);
    }, 0);

    // Taken before flatpickr's own keys (the capture phase): it moves only
    // by days and weeks and sends Shift+Tab to its hidden field.
    function onKey(e: KeyboardEvent) {
      const t = e.target as DayEl;
      if (!inst) return;
      if (t === inst.prevMonthNav || t === inst.nextMonthNav) {
        if (e.key !== "Enter" && e.key !== " ") return;
        e.preventDefault();
        e.stopPropagation();
        t.click();
        // the last month's button goes: the focus goes on to the days
        if (!t.offsetParent) tidy(true);
        return;
      }
      if (!t.classList.contains("flatpickr-day") || !t.dateObj) return;
      e.stopPropagation();
      if (e.key === "Tab") return;
      const d = iso(t.dateObj);
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        f.day = d;
        f.inside = true;
        t.click();
        tidy(true);
        return;
      }
      const moved = moveKey(e.key, e.shiftKey, d);
      if (!moved) return;
      e.preventDefault();
      const p = latest.current;
      const to = clampDay(moved, p.min, p.max);
      const at = local(to);
      const shown = inst.currentYear * 12 + inst.currentMonth;
      const want = at.getFullYear() * 12 + at.getMonth();
      const last = shown + inst.config.showMonths - 1;
      if (want < shown) inst.changeMonth(want - shown);
      else if (want > last) inst.changeMonth(want - last);
      f.day = to;
      f.inside = true;
      tidy(true);
    }
    function onFocusIn(e: FocusEvent) {
      const t = e.target as DayEl;
      if (t.classList.contains("flatpickr-day") && t.dateObj) {
        f.day = iso(t.dateObj);
        f.inside = true;
      }
    }
    function onFocusOut(e: FocusEvent) {
      const to = e.relatedTarget as Node | null;
      if (to && !inst?.calendarContainer.contains(to)) f.inside = false;
    }
    function onPointer(e: PointerEvent) {
      if (!inst?.calendarContainer.contains(e.target as Node)) f.inside = false;
    }
    return () => {
      window.clearTimeout(timer);
      observer?.disconnect();
      document.removeEventListener("pointerdown", onPointer, true);
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
    else arrange(inst, focus.current, props, false); // the chosen state may have changed without a redraw
    drawn.current = value;
  });

  return (
    <>
      <div className="cal" data-months={wide ? 2 : 1} data-mode={props.mode}>
        <input ref={host} type="text" hidden aria-hidden="true" tabIndex={-1} aria-label={props.label} />
      </div>
      {props.booked && props.booked.length > 0 && (
        <p className="hint cal-legend">
          <span className="cal-key" aria-hidden="true" /> — {BOOKED}
        </p>
      )}
    </>
  );
}
