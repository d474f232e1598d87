// Slot-picker island for moving a pavilion or celebration-room rent.
// The page's own radio buttons and day form are the
// fallback: without this island they post to the server, which checks the
// same rules. With it, the customer taps the first hour, then the last;
// busy hours cannot be taken and a wrong period is said at once; a new day
// loads from the same page as JSON; the choice posts the same form.
import { useEffect, useId, useRef, useState } from "react";
import { changedValue, fetchJSON, fieldsOf, KeepServerForm, REQUEST_FAILED, safePath, type Answer } from "../forms";
import { NONE, pickOf, tap, type Hour, type Pick } from "./rules";

/** One day of the facility (views.RentDay). */
export type Day = {
  date: string;
  label: string;
  hourCost: number;
  cost: string;
  amount: number;
  need: string;
  hours: Hour[];
  message?: string;
  failed?: boolean;
};

export type SlotPickerProps = Day & {
  /** The page: GET ?date= answers a Day as JSON, POST takes the move. */
  url: string;
  /** CSS selector of the day's GET form. */
  dayForm: string;
  min: string;
  max: string;
  from?: string;
  to?: string;
};

/** A day's hours, or an answer to a move. */
type DayAnswer = Partial<Answer> & Partial<Day>;

export const PICK_BOTH = "Выберите первый и последний час.";

/** The hours the customer chose in the server's radio buttons before the
 *  island came (else the ones a refused POST sent), and a day typed into
 *  the day's form meanwhile, which the island then loads. Hours it cannot
 *  show as chosen, or hours chosen together with another day typed, keep
 *  the server's form. */
function serverPick(props: SlotPickerProps): { pick: Pick; day?: string } {
  const radio = (name: string) => document.querySelector(`[data-island-fallback] input[type="radio"][name="${name}"]:checked`);
  const from = changedValue(radio("from"));
  const to = changedValue(radio("to"));
  const typed = changedValue(document.querySelector(`${props.dayForm} input[name="date"]`));
  const day = typed && typed !== props.date ? typed : undefined;
  if (from === undefined && to === undefined) return { pick: pickOf(props.hours, props.from, props.to), day };
  const start = from ?? (radio("from") as HTMLInputElement | null)?.value;
  const end = to ?? (radio("to") as HTMLInputElement | null)?.value;
  const pick = pickOf(props.hours, start, end);
  if (day !== undefined || pick.start === null || (end !== undefined && pick.end === null)) {
    throw new KeepServerForm(`the hours ${start ?? ""}–${end ?? ""}`);
  }
  return { pick };
}

export default function SlotPicker(props: SlotPickerProps) {
  const { url, dayForm } = props;
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const [taken] = useState(() => serverPick(props));
  const [day, setDay] = useState<Day>(props);
  const [pick, setPick] = useState<Pick>(taken.pick);
  const [alert, setAlert] = useState("");
  const [status, setStatus] = useState("");
  const [loading, setLoading] = useState(false);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState(false);

  const chosen = pick.start !== null && pick.end !== null;
  const from = pick.start !== null ? day.hours[pick.start].from : "";
  const to = chosen ? day.hours[pick.end as number].to : "";

  // Latest values for the form's listeners, which are attached once.
  const latest = useRef({ chosen, sending, done });
  latest.current = { chosen, sending, done };

  const loadDay = async (date: string) => {
    if (!date) return;
    setLoading(true);
    setAlert("");
    const res = await fetchJSON<DayAnswer>(`${url}?date=${encodeURIComponent(date)}`);
    setLoading(false);
    if (res && Array.isArray(res.body.hours) && res.body.date) {
      const next = res.body as Day;
      setDay(next);
      setPick(NONE);
      setStatus(`Часы на ${next.label} загружены.`);
      const form = root.current?.closest("form");
      const field = form?.elements.namedItem("date");
      if (field instanceof HTMLInputElement) field.value = next.date;
      history.replaceState(history.state, "", `${url}?date=${encodeURIComponent(next.date)}`);
      return;
    }
    setAlert(res?.body.message || REQUEST_FAILED);
  };
  const loadRef = useRef(loadDay);
  loadRef.current = loadDay;

  // A day typed before the island came is loaded as soon as it is here.
  useEffect(() => {
    if (taken.day) void loadRef.current(taken.day);
  }, [taken]);

  // The day form: a new day loads in place instead of a page load.
  useEffect(() => {
    const f = document.querySelector(dayForm);
    if (!(f instanceof HTMLFormElement)) return;
    const input = f.elements.namedItem("date");
    if (!(input instanceof HTMLInputElement)) return;
    const onSubmit = (e: Event) => {
      e.preventDefault();
      void loadRef.current(input.value);
    };
    const onChange = () => {
      if (input.checkValidity()) void loadRef.current(input.value);
    };
    f.addEventListener("submit", onSubmit);
    input.addEventListener("change", onChange);
    return () => {
      f.removeEventListener("submit", onSubmit);
      input.removeEventListener("change", onChange);
    };
  }, [dayForm]);

  // The move's form: its radio buttons give way to this island's choice,
  // and it is sent by fetch, the same fields to the same URL.
  useEffect(() => {
    const form = root.current?.closest("form");
    if (!form) throw new Error("slot-picker: not inside the move's form");
    const radios = Array.from(form.querySelectorAll<HTMLInputElement>("[data-island-fallback] input"));
    radios.forEach((r) => (r.disabled = true));
    const onSubmit = async (e: SubmitEvent) => {
      e.preventDefault();
      const { chosen, sending, done } = latest.current;
      if (sending || done) return;
      if (!chosen) {
        setAlert(PICK_BOTH);
        return;
      }
      setSending(true);
      setAlert("");
      const res = await fetchJSON<DayAnswer>(form.action, { method: "POST", body: fieldsOf(form) });
      setSending(false);
      if (!res) {
        // No answer: let the browser post the form as it is.
        HTMLFormElement.prototype.submit.call(form);
        return;
      }
      if (res.body.ok) {
        // As after every action, with JavaScript or without: on to the
        // order at once, which shows the server's message once.
        setDone(true);
        setStatus("Открываем заказ…");
        window.location.assign(safePath(res.body.redirect, "/orders"));
        return;
      }
      const token = form.elements.namedItem("token");
      if (res.body.token && token instanceof HTMLInputElement) token.value = res.body.token;
      setAlert(res.body.message || REQUEST_FAILED);
    };
    form.addEventListener("submit", onSubmit);
    return () => {
      form.removeEventListener("submit", onSubmit);
      radios.forEach((r) => (r.disabled = false));
    };
  }, []);

  const onTap = (i: number) => {
    if (done) return;
    const h = day.hours[i];
    if (!h.free) {
      setStatus(`${h.from} занято.`);
      return;
    }
    const r = tap(pick, i, day.hours, day.hourCost, day.amount);
    setPick(r.pick);
    setAlert(r.error);
    if (r.error) {
      setStatus("Выберите первый час заново.");
      return;
    }
    if (r.pick.end !== null && r.pick.start !== null) {
      setStatus(`Выбрано: ${day.hours[r.pick.start].from}–${day.hours[r.pick.end].to}. Нажмите «Перенести аренду».`);
    } else if (r.pick.start !== null) {
      setStatus(`Начало: ${day.hours[r.pick.start].from}. Теперь выберите последний час.`);
    }
  };

  const inPick = (i: number) =>
    pick.start !== null && (i === pick.start || (pick.end !== null && i >= pick.start && i <= pick.end));

  return (
    <div ref={root} className="slot-picker" aria-busy={loading}>
      <h2 id={`${id}-h`}>Часы на {day.label}</h2>
      {day.cost && (
        <p>
          Стоимость часа: {day.cost}. Ваша аренда оплачена на {day.need} ч.: выберите столько же часов подряд.
        </p>
      )}
      {day.message && <p className={day.failed ? "notice notice-err" : "notice"}>{day.message}</p>}
      {day.hours.length > 0 && (
        <>
          <p className="hint" id={`${id}-hint`}>
            Нажмите на первый час аренды, затем на последний. Зачёркнутые часы заняты.
          </p>
          <div className="slots" role="group" aria-labelledby={`${id}-h`} aria-describedby={`${id}-hint`}>
            {day.hours.map((h, i) => (
              <button
                key={h.from}
                type="button"
                className={`slot${h.free ? "" : " slot-busy"}${inPick(i) ? " slot-on" : ""}`}
                aria-pressed={inPick(i)}
                aria-disabled={!h.free || undefined}
                onClick={() => onTap(i)}
              >
                {h.from}
                {!h.free && <span className="skip">занято</span>}
                {h.free && h.own && <small> сейчас</small>}
              </button>
            ))}
          </div>
        </>
      )}
      <p role="alert" className="field-err">
        {alert}
      </p>
      <p role="status">{status}</p>
      <input type="hidden" name="from" value={from} />
      <input type="hidden" name="to" value={to} />
    </div>
  );
}
