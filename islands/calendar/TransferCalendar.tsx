// The calendar island of the transfer pages. It
// lives inside the page's own POST form and takes over its day field: the
// server's day form (a GET) and the server-rendered choices stay in the page
// as the fallback, and come back if the island fails. Choosing a day asks the
// same GET URL for JSON; the customer chooses and submits the same form.
import { useCallback, useEffect, useRef, useState } from "react";
import Calendar from "./Calendar";
import { fetchJSON } from "../forms";
import { checkAquaDate, click, complete, hotelDayAvailable, nights, noPick, showDay, type Day, type RangePick } from "./rules";

export type HotelDay = { date: Day; vacant: number; family: number; price: number; label: string };

export type TransferCalendarProps = {
  mode: "day" | "range";
  min: Day;
  max: Day;
  dayForm: string;
  label: string;
  name?: string;
  value?: Day;
  url?: string;
  choice?: string;
  done?: string;
  /** the shown day's choices as the url answers them: not asked for again */
  first?: DayChoices;
  /** a date field of the page that the calendar fills in (a change event
   *  follows), for an island that reads it: the rent move's slot picker */
  target?: string;
  original?: Day;
  start?: string;
  end?: string;
  from?: Day;
  to?: Day;
  days?: HotelDay[];
  rooms?: number;
  family?: number;
  amount?: number;
  texts?: Record<string, string>;
};

type Choice = { value: string; title: string; lines: string[] | null; disabled?: string };
export type DayChoices = { date: Day; legend: string; field: string; choices: Choice[]; empty: string; error?: string; pick?: string };

export const LOAD_FAILED = "Не удалось загрузить список. Попробуйте другой день или обновите страницу.";

/** Hides the server's day form and takes the names off the fallback's
 *  fields while the island is mounted, so that each field is sent once (and
 *  React's radio buttons are the only ones of their name in the form). */
function useTakeOver(root: React.RefObject<HTMLElement | null>, dayForm: string, enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    const island = root.current?.closest<HTMLElement>("[data-island]");
    const form = dayForm ? document.querySelector<HTMLElement>(dayForm) : null;
    const fields = Array.from(
      island?.querySelectorAll<HTMLInputElement | HTMLButtonElement>("[data-island-fallback] input[name], [data-island-fallback] button[name]") ?? [],
    );
    const names = fields.map((f) => f.name);
    if (form) form.hidden = true;
    fields.forEach((f) => f.removeAttribute("name"));
    return () => {
      if (form) form.hidden = false;
      fields.forEach((f, i) => (f.name = names[i]));
    };
  }, [root, dayForm, enabled]);
}

export default function TransferCalendar(props: TransferCalendarProps) {
  const root = useRef<HTMLDivElement>(null);
  useTakeOver(root, props.dayForm, !props.target);
  let body = <DayChoice {...props} />;
  if (props.mode === "range") body = <HotelRange {...props} />;
  else if (props.target) body = <DayTarget {...props} target={props.target} />;
  return <div ref={root}>{body}</div>;
}

/** A day for another island: the calendar fills in the page's own date
 *  field (kept in the fallback, hidden) and says it changed. */
function DayTarget(props: TransferCalendarProps & { target: string }) {
  const [day, setDay] = useState<Day>(props.value ?? "");
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
      <Calendar mode="single" min={props.min} max={props.max} value={day ? [day] : []} onDay={onDay} label={props.label} />
    </>
  );
}

function DayChoice(props: TransferCalendarProps) {
  const [day, setDay] = useState<Day>(props.value ?? "");
  // The server's list of the first day is shown at once: asked for
  // again, it would arrive after the island and move what stands below.
  const first = useRef(props.first?.date && props.first.date === day ? props.first : undefined);
  const [data, setData] = useState<DayChoices | null>(first.current ?? null);
  const [failed, setFailed] = useState(false);
  const [chosen, setChosen] = useState(props.choice ?? "");

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
  return (
    <>
      <p className="field-label" id="cal-label">
        {props.label}: {showDay(day) || "не выбрана"}
      </p>
      <Calendar mode="single" min={props.min} max={props.max} value={day ? [day] : []} isDisabled={disabled} onDay={onDay} label={props.label} />
      <input type="hidden" name={props.name ?? "date"} value={day} />
      <fieldset className="field choices" aria-live="polite" aria-busy={!data && !failed}>
        <legend>{data?.legend || "\u00a0"}</legend>
        {failed && <p className="notice notice-err">{LOAD_FAILED}</p>}
        {data?.error && <p className="notice notice-err">{data.error}</p>}
        {data && !data.error && data.choices.length === 0 && <p className="muted">{data.empty}</p>}
        {data?.choices.map((c) =>
          data.pick ? (
            <div className={chosen === c.value ? "choice chosen" : "choice"} key={c.value}>
              <Lines c={c} />
              {!c.disabled && (
                <button className="btn btn-2 pick" type="button" aria-pressed={chosen === c.value} onClick={() => setChosen(c.value)}>
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

function Lines({ c }: { c: Choice }) {
  return (
    <span>
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

const rub = new Intl.NumberFormat("ru-RU", { maximumFractionDigits: 0 });
const thousands = new Intl.NumberFormat("ru-RU", { maximumFractionDigits: 1 });

function HotelRange(props: TransferCalendarProps) {
  const byDay = new Map((props.days ?? []).map((d) => [d.date, d]));
  const rooms = props.rooms ?? 1;
  const family = props.family ?? 0;
  const texts = props.texts ?? {};
  const [pick, setPick] = useState<RangePick>(
    props.from && props.to && props.from < props.to ? { start: props.from, end: props.to } : noPick,
  );
  const available = (d: Day) => {
    const day = byDay.get(d);
    return day !== undefined && hotelDayAvailable(day, rooms, family);
  };
  const root = useRef<HTMLDivElement>(null);
  const done = complete(pick);

  // 'Готово' only when both ends are chosen.
  useEffect(() => {
    const button = root.current?.closest("form")?.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (!button) return;
    button.hidden = !done;
    return () => {
      button.hidden = false;
    };
  }, [done]);

  const list = nights(pick);
  const sum = list.reduce((s, d) => s + (byDay.get(d)?.price ?? 0), 0);
  let problem = "";
  if (done && !list.every(available)) problem = texts.unavailable ?? "";
  else if (done && props.amount !== undefined && Math.abs(sum - props.amount) >= 0.005) problem = texts.price ?? "";

  return (
    <div ref={root}>
      <p className="field-label">{props.label}</p>
      <Calendar
        mode="range"
        min={props.min}
        max={props.max}
        value={[pick.start, pick.end].filter(Boolean)}
        isDisabled={(d) => !available(d) && !checkOutAllowed(pick, d, available)}
        onDay={(d) => setPick((p) => click(p, d))}
        note={(d) => {
          const day = byDay.get(d);
          return day && available(d) ? { short: thousands.format(day.price / 1000) + "к", full: day.label } : undefined;
        }}
        label={props.label}
      />
      <input type="hidden" name={props.start ?? "dateIn"} value={pick.start} />
      <input type="hidden" name={props.end ?? "dateOut"} value={pick.end} />
      <p className="cal-sum" aria-live="polite">
        {texts.checkIn ?? "Заезд"}: {showDay(pick.start) || "—"}, {texts.checkOut ?? "Выезд"}: {showDay(pick.end) || "—"}
        {done && `, ночей: ${list.length}, ${rub.format(sum)}\u00a0₽`}
      </p>
      {problem && <p className="notice notice-err">{problem}</p>}
    </div>
  );
}
