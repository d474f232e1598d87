// The calendar island of the transfer pages. It
// lives inside the page's own POST form and takes over its day field: the
// server's day form (a GET) and the server-rendered choices stay in the page
// as the fallback, and come back if the island fails. Choosing a day asks the
// same GET URL for JSON; the customer chooses and submits the same form.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import Calendar from "./Calendar";
import { changedValue, fetchJSON, KeepServerForm } from "../forms";
import { rubles, thousands } from "./money";
import { addDays, checkAquaDate, complete, hotelDayAvailable, hotelTap, nights, noPick, parseDay, showDay, type Day, type RangePick } from "./rules";

export type HotelDay = { date: Day; vacant: number; family: number; price: number; label: string };

/** What every move's calendar has. */
type Window = {
  min: Day;
  max: Day;
  /** the first month shown (yyyy-mm-01), the server's month's */
  month?: Day;
  label: string;
  /** the resort's today */
  today?: Day;
};

/** A lesson's or a water-park visit's move: a day, then one of its lessons
 *  or sessions, asked of url. */
export type DayMoveProps = Window & {
  kind: "day";
  name: string;
  value?: Day;
  url: string;
  choice?: string;
  done?: string;
  /** the shown day's choices as the url answers them: not asked for again */
  first?: DayChoices;
  /** a water-park order's day: only days of its weekday class */
  original?: Day;
  /** the order's own day now, marked in the calendar */
  booked?: Day;
};

/** A rent's move: the day fills in the page's date field (target; a change
 *  event follows) for the slot picker, which asks for its hours. */
export type RentDayProps = Window & {
  kind: "rent";
  target: string;
  value?: Day;
  booked?: Day;
};

/** A hotel stay's move: a check-in, then a check-out. */
export type StayProps = Window & {
  kind: "stay";
  /** the order's booked check-in and check-out */
  stay: [Day, Day];
  start: string;
  end: string;
  from?: Day;
  to?: Day;
  days: HotelDay[];
  rooms: number;
  family: number;
  amount?: number;
  texts: { unavailable: string; price: string; same: string; checkIn: string; checkOut: string };
};

/** The calendar island's props, one shape per kind of move, as the server
 *  sends them (views.DayCalendar, RentCalendar, StayCalendar). */
export type TransferCalendarProps = DayMoveProps | RentDayProps | StayProps;

type Choice = { value: string; title: string; lines: string[] | null; disabled?: string };
export type DayChoices = { date: Day; legend: string; field: string; choices: Choice[]; empty: string; error?: string; pick?: string };

/** A night without the order's rooms free, as a screen reader says it. */
export const NO_ROOM = "нет мест";
export const FULL_NIGHTS = "Зачёркнутые ночи заняты: заезд в такой день невозможен.";

export const LOAD_FAILED = "Не удалось загрузить список. Попробуйте другой день или обновите страницу.";

/** Takes the names off the fallback's fields while the island is mounted,
 *  so that each field is sent once (and React's radio buttons are the only
 *  ones of their name in the form). The forms of a typed day stay as they
 *  are, beside the island: what the customer typed there is theirs. */
function useTakeOver(root: React.RefObject<HTMLElement | null>, enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    const island = root.current?.closest<HTMLElement>("[data-island]");
    const fields = Array.from(
      island?.querySelectorAll<HTMLInputElement | HTMLButtonElement>("[data-island-fallback] input[name], [data-island-fallback] button[name]") ?? [],
    );
    const names = fields.map((f) => f.name);
    fields.forEach((f) => f.removeAttribute("name"));
    return () => fields.forEach((f, i) => (f.name = names[i]));
  }, [root, enabled]);
}

export default function TransferCalendar(props: TransferCalendarProps) {
  const root = useRef<HTMLDivElement>(null);
  // the rent's day goes to the page's own field, for the slot picker
  useTakeOver(root, props.kind !== "rent");
  let body;
  if (props.kind === "stay") body = <HotelRange {...props} />;
  else if (props.kind === "rent") body = <DayTarget {...props} />;
  else body = <DayChoice {...props} />;
  return <div ref={root}>{body}</div>;
}

/** A day the customer typed into the server's date field before the island
 *  came, when it is a day the calendar offers; undefined when the field is
 *  untouched. A typed day it cannot offer keeps the server's form. */
function typedDay(field: Element | null | undefined, props: RentDayProps): Day | undefined {
  const typed = changedValue(field);
  if (typed === undefined) return undefined;
  const d = parseDay(typed);
  if (!d || d < props.min || d > props.max) {
    throw new KeepServerForm(`the day "${typed}"`);
  }
  return d;
}

/** A day for another island: the calendar fills in the page's own date
 *  field (kept in the fallback, hidden) and says it changed. The day the
 *  customer typed there before the island came is kept (the slot picker
 *  loads its hours). */
function DayTarget(props: RentDayProps) {
  const [day, setDay] = useState<Day>(() => typedDay(document.querySelector(props.target), props) ?? props.value ?? "");
  const onDay = useCallback(
    (d: Day) => {
      setDay(d);
      const field = document.querySelector<HTMLInputElement>(props.target);
      if (!field) return;
      field.value = d;
      field.dispatchEvent(new Event("change", { bubbles: true }));
    },
    [props.target],
  );
  return (
    <>
      <p className="field-label">
        {props.label}: {showDay(day) || "не выбран"}
      </p>
      <Calendar
        mode="single"
        min={props.min}
        max={props.max}
        today={props.today}
        month={props.month}
        value={day ? [day] : []}
        onDay={onDay}
        label={props.label}
        booked={props.booked ? [props.booked] : undefined}
      />
    </>
  );
}

/** The choice (a session's radio button) the customer made in the server's
 *  form before the island came, which a browser may also have restored. */
function serverChoice(props: DayMoveProps): { day: Day; choice: string } {
  const radio = document.querySelector<HTMLInputElement>('[data-island="calendar"] [data-island-fallback] input[type="radio"]:checked');
  return { day: props.value ?? "", choice: radio?.value ?? props.choice ?? "" };
}

function DayChoice(props: DayMoveProps) {
  const id = useId();
  const [taken] = useState(() => serverChoice(props));
  const [day, setDay] = useState<Day>(taken.day);
  // The server's list of the first day is shown at once: asked for
  // again, it would arrive after the island and move what stands below.
  const first = useRef(props.first?.date && props.first.date === day ? props.first : undefined);
  const [data, setData] = useState<DayChoices | null>(first.current ?? null);
  const [failed, setFailed] = useState(false);
  const [chosen, setChosen] = useState(taken.choice);

  useEffect(() => {
    if (!day || !props.url) return;
    if (first.current?.date === day) {
      first.current = undefined;
      return;
    }
    const ctl = new AbortController();
    setFailed(false);
    void fetchJSON<DayChoices>(`${props.url}?date=${encodeURIComponent(day)}`, { signal: ctl.signal }).then((res) => {
      if (ctl.signal.aborted) return;
      if (res) setData(res.body);
      else setFailed(true);
    });
    return () => ctl.abort();
  }, [day, props.url]);

  const disabled = useCallback(
    (d: Day) => (props.original ? checkAquaDate(props.original, d, props.min) !== "" : false),
    [props.original, props.min],
  );
  const onDay = useCallback((d: Day) => {
    setDay(d);
    setChosen("");
  }, []);

  const field = data?.field ?? "";
  // A list of radio buttons is sent by the page's own button, offered only
  // for a day with something to choose.
  const label = useRef<HTMLParagraphElement>(null);
  const offered = !!data && !data.error && data.choices.some((c) => !c.disabled);
  useSubmitShown(label, offered || !!data?.pick);
  return (
    <>
      <p className="field-label" id="cal-label" ref={label}>
        {props.label}: {showDay(day) || "не выбрана"}
      </p>
      <Calendar
        mode="single"
        min={props.min}
        max={props.max}
        today={props.today}
        month={props.month}
        value={day ? [day] : []}
        isDisabled={disabled}
        onDay={onDay}
        label={props.label}
        booked={props.booked ? [props.booked] : undefined}
      />
      <input type="hidden" name={props.name} value={day} />
      <fieldset className="field choices" aria-live="polite" aria-busy={!data && !failed}>
        <legend>{data?.legend || "\u00a0"}</legend>
        {failed && <p className="notice notice-err">{LOAD_FAILED}</p>}
        {data?.error && <p className="notice notice-err">{data.error}</p>}
        {data && !data.error && data.choices.length === 0 && <p className="muted">{data.empty}</p>}
        {data?.choices.map((c, i) =>
          data.pick ? (
            <div className={chosen === c.value ? "choice chosen" : "choice"} key={c.value}>
              <Lines c={c} id={`${id}-${i}`} />
              {/* named with its lesson: 'Выбрать 16:00 · Сноуборд …' */}
              {!c.disabled && (
                <button
                  className="btn btn-2 pick"
                  type="button"
                  id={`${id}-${i}-pick`}
                  aria-labelledby={`${id}-${i}-pick ${id}-${i}`}
                  aria-pressed={chosen === c.value}
                  onClick={() => setChosen(c.value)}
                >
                  {data.pick}
                </button>
              )}
            </div>
          ) : (
            <label className={c.disabled ? "choice choice-off" : "choice"} key={c.value}>
              <input type="radio" name={field} value={c.value} checked={chosen === c.value} disabled={!!c.disabled} onChange={() => setChosen(c.value)} />
              <Lines c={c} />
            </label>
          ),
        )}
        {data?.pick && <input type="hidden" name={field} value={chosen} />}
      </fieldset>
      {/* 'Готово' only once both the day and the lesson are chosen. */}
      {data?.pick && props.done && day && data.choices.some((c) => c.value === chosen && !c.disabled) && (
        <div className="actions">
          <button className="btn" type="submit">
            {props.done}
          </button>
        </div>
      )}
    </>
  );
}

function Lines({ c, id }: { c: Choice; id?: string }) {
  return (
    <span id={id}>
      <strong>{c.title}</strong>
      {(c.lines ?? []).map((l) => (
        <span className="hint" key={l}>
          {l}
        </span>
      ))}
      {c.disabled && <span className="hint">{c.disabled}</span>}
    </span>
  );
}

/** A check-out morning need not be a free night: once the start is chosen,
 *  a later day is allowed when every night up to it is free. */
export function checkOutAllowed(p: RangePick, d: Day, available: (d: Day) => boolean): boolean {
  if (!p.start || p.end || d <= p.start) return false;
  return nights({ start: p.start, end: d }).every(available);
}

/** The stay chosen in the server's month: a check-in, then a check-out
 *  after it (a check-out alone is no stay). */
function serverRange(props: StayProps): RangePick {
  const start = parseDay(props.from ?? "");
  const end = parseDay(props.to ?? "");
  if (!start || start < props.min || start > props.max) return noPick;
  return { start, end: end && end > start && end <= props.max ? end : "" };
}

/** The days of the stay the order holds, check-in to check-out. */
function stayDays(stay: [Day, Day]): Day[] | undefined {
  if (!stay[0] || !(stay[0] < stay[1])) return undefined;
  const out: Day[] = [];
  for (let d = stay[0]; d <= stay[1]; d = addDays(d, 1)) out.push(d);
  return out;
}

function HotelRange(props: StayProps) {
  const byDay = new Map(props.days.map((d) => [d.date, d]));
  const { rooms, family, texts } = props;
  const [pick, setPick] = useState<RangePick>(() => serverRange(props));
  const [booked] = useState(() => stayDays(props.stay));
  // What the last tap did; n makes a refusal said again a new render.
  // A check-in chosen in the server's month asks for the check-out, as there.
  const [said, setSaid] = useState(() => ({ text: pick.start && !pick.end ? `Заезд ${showDay(pick.start)}. Теперь выберите день выезда.` : "", refused: false, n: 0 }));
  const available = (d: Day) => {
    const day = byDay.get(d);
    return day !== undefined && hotelDayAvailable(day, rooms, family);
  };
  const root = useRef<HTMLDivElement>(null);
  const done = complete(pick);

  const list = nights(pick);
  const sum = list.reduce((s, d) => s + (byDay.get(d)?.price ?? 0), 0);
  let problem = "";
  if (done && !list.every(available)) problem = texts.unavailable;
  else if (done && props.amount !== undefined && Math.abs(sum - props.amount) >= 0.005) problem = texts.price;
  else if (done && pick.start === props.stay[0] && pick.end === props.stay[1]) problem = texts.same;

  // 'Готово' only for a range the rules accept.
  useSubmitShown(root, done && !problem);

  return (
    <div ref={root}>
      <p className="field-label">{props.label}</p>
      <p className="hint">{FULL_NIGHTS}</p>
      <Calendar
        mode="range"
        min={props.min}
        max={props.max}
        today={props.today}
        month={props.month}
        booked={booked}
        value={[pick.start, pick.end].filter(Boolean)}
        // Every day answers a tap: a full night is marked, not disabled, and
        // a tap that cannot be taken says why and what to do.
        mark={(d) => (available(d) || checkOutAllowed(pick, d, available) ? "" : "cal-off")}
        onDay={(d) => {
          const t = hotelTap(pick, d, available);
          setPick(t.pick);
          setSaid((s) => ({ text: t.say, refused: t.refused, n: s.n + 1 }));
        }}
        note={(d) => {
          const day = byDay.get(d);
          if (day && available(d)) return { short: thousands(day.price) + "к", full: day.label };
          // a night listed without the order's rooms free; the days the
          // list does not reach are simply not offered
          return day ? { short: "", full: NO_ROOM } : undefined;
        }}
        label={props.label}
      />
      <input type="hidden" name={props.start} value={pick.start} />
      <input type="hidden" name={props.end} value={pick.end} />
      <p className={said.refused ? "notice notice-err cal-say" : "hint cal-say"} role="status" aria-live="polite">
        {said.text}
      </p>
      <p className="cal-sum" aria-live="polite">
        {texts.checkIn}: {showDay(pick.start) || "—"}, {texts.checkOut}: {showDay(pick.end) || "—"}
        {done && `, ночей: ${list.length}, ${rubles(sum)}`}
      </p>
      {problem && <p className="notice notice-err">{problem}</p>}
    </div>
  );
}

/** Shows the form's own submit button only while shown holds, and leaves it
 *  as the page had it when the island goes. */
function useSubmitShown(root: React.RefObject<HTMLElement | null>, shown: boolean) {
  useEffect(() => {
    const button = root.current?.closest("form")?.querySelector<HTMLButtonElement>('.actions > button[type="submit"]');
    if (!button) return;
    const was = { hidden: button.hidden, disabled: button.disabled };
    button.hidden = !shown;
    button.disabled = !shown;
    return () => {
      button.hidden = was.hidden;
      button.disabled = was.disabled;
    };
  }, [root, shown]);
}
