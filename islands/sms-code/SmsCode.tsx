// SMS-code island for /login and /signup. The page's own form is
// the fallback: without this island it posts to the server, which answers
// with the code page. With it, the same fields go to the same URL by fetch
// and the code is taken in a modal dialog.
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  type SyntheticEvent,
} from "react";
import { fetchJSON, fieldsOf, REQUEST_FAILED, safePath, type Answer } from "../forms";
import "./sms-code.css";

export type SmsCodeProps = {
  mode: "login" | "signup";
  /** CSS selector of the page's form, e.g. "#login-form". */
  form: string;
  requestUrl: string;
  confirmUrl: string;
  resendUrl: string;
  home?: string;
  sandboxHint?: string;
};

const LENGTH = 4;
const DEFAULT_RESEND = 60;
const EMPTY = ["", "", "", ""];

/** POSTs fields and returns the parsed answer, or null when the network
 *  failed or the body is not a JSON answer. */
async function post(url: string, body?: URLSearchParams): Promise<Answer | null> {
  const res = await fetchJSON<Answer>(url, { method: "POST", body });
  if (!res || typeof res.body.ok !== "boolean") return null;
  return { ...res.body, ok: res.body.ok && res.ok };
}

/** The number typed as the server keeps it, 7 and ten digits ("" when it is
 *  not one): the sandbox's outbox is addressed by it. */
export function phoneDigits(typed: string): string {
  const d = typed.replace(/\D/g, "");
  if (d.length === 10) return "7" + d;
  if (d.length === 11 && (d[0] === "7" || d[0] === "8")) return "7" + d.slice(1);
  return "";
}

type Dialog =
  | { kind: "closed" }
  | { kind: "code"; phone: string; digits: string }
  | { kind: "error"; title: string; messages: string[] };

export default function SmsCode(props: SmsCodeProps) {
  const { requestUrl, confirmUrl, resendUrl, sandboxHint } = props;
  const home = props.home || "/";

  // A missing form is a page bug: throwing here makes the mount loop keep
  // the plain form working.
  const [form] = useState(() => {
    const el = document.querySelector(props.form);
    if (!(el instanceof HTMLFormElement)) throw new Error(`sms-code: form ${props.form} not found`);
    return el;
  });

  const id = useId();
  const titleId = `${id}-title`;
  const promptId = `${id}-prompt`;
  const errorId = `${id}-error`;

  const dialogRef = useRef<HTMLDialogElement>(null);
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const closeRef = useRef<HTMLButtonElement>(null);
  const submitter = useRef<HTMLElement | null>(null);
  const invalidFields = useRef<Element[]>([]);
  const busy = useRef(false);

  const [dialog, setDialog] = useState<Dialog>({ kind: "closed" });
  const [digits, setDigits] = useState<string[]>(EMPTY);
  const [invalid, setInvalid] = useState(false);
  const [alert, setAlert] = useState("");
  const [pending, setPending] = useState(false);
  const [deadline, setDeadline] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  const remaining = deadline === null ? 0 : Math.max(0, Math.ceil((deadline - now) / 1000));

  const startCountdown = (seconds: number | undefined) => {
    const s = typeof seconds === "number" && seconds >= 0 ? seconds : DEFAULT_RESEND;
    const t = Date.now();
    setNow(t);
    setDeadline(t + s * 1000);
  };

  // Date-based, so a throttled background tab still shows the right number.
  useEffect(() => {
    if (deadline === null) return;
    const timer = window.setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= deadline) window.clearInterval(timer);
    }, 250);
    return () => window.clearInterval(timer);
  }, [deadline]);

  const resetCode = () => {
    setDigits(EMPTY);
    setInvalid(false);
    setAlert("");
  };

  const close = useCallback(() => {
    const dlg = dialogRef.current;
    if (dlg?.open) dlg.close();
    setDialog({ kind: "closed" });
    setDeadline(null);
    const back =
      submitter.current ?? form.querySelector<HTMLElement>('button:not([type]), [type="submit"]');
    back?.focus();
  }, [form]);

  // Take over the page form's submit, in the commit that mounts the island:
  // the mount loop sends the submit that brought the island here again as
  // soon as the island is on the page (a later, passive effect would let it
  // go to the server).
  useLayoutEffect(() => {
    const onSubmit = async (event: SubmitEvent) => {
      event.preventDefault();
      if (busy.current) return;
      busy.current = true;
      submitter.current = event.submitter ?? null;
      invalidFields.current.forEach((f) => f.removeAttribute("aria-invalid"));
      invalidFields.current = [];
      form.setAttribute("aria-busy", "true");
      const answer = await post(requestUrl, fieldsOf(form));
      form.removeAttribute("aria-busy");
      busy.current = false;
      if (answer?.ok) {
        resetCode();
        startCountdown(answer.resendIn);
        const typed = form.elements.namedItem("phone");
        const digits = phoneDigits(typed instanceof HTMLInputElement ? typed.value : "");
        setDialog({ kind: "code", phone: answer.phone ?? "", digits });
        return;
      }
      const messages = [answer?.message || REQUEST_FAILED];
      for (const [name, text] of Object.entries(answer?.fields ?? {})) {
        const field = form.elements.namedItem(name);
        if (field instanceof Element) {
          field.setAttribute("aria-invalid", "true");
          invalidFields.current.push(field);
        }
        if (text && !messages.includes(text)) messages.push(text);
      }
      setDialog({ kind: "error", title: answer?.title || "Ой!", messages });
    };
    const listener = (e: Event) => void onSubmit(e as SubmitEvent);
    form.addEventListener("submit", listener);
    return () => form.removeEventListener("submit", listener);
  }, [form, requestUrl]);

  // Open the dialog and put focus where the customer acts next.
  useEffect(() => {
    const dlg = dialogRef.current;
    if (!dlg || dialog.kind === "closed") return;
    if (!dlg.open) dlg.showModal();
    // Opened at its top, the title and the close button in view also on a
    // screen shorter than the dialog (400 % zoom): the focus goes in without
    // scrolling, and the first digit typed brings its box into view.
    if (dialog.kind === "code") boxes.current[0]?.focus({ preventScroll: true });
    else closeRef.current?.focus({ preventScroll: true });
    dlg.scrollTop = 0;
  }, [dialog]);

  const focusBox = (i: number) => {
    const box = boxes.current[Math.max(0, Math.min(LENGTH - 1, i))];
    box?.focus();
    box?.select();
  };

  /** Writes digits into the boxes starting at `from`; a whole code always
   *  starts at the first box, whichever box it was pasted into. */
  const fill = (from: number, text: string) => {
    const incoming = text.replace(/\D/g, "");
    if (!incoming) return;
    const start = incoming.length >= LENGTH ? 0 : from;
    const next = [...digits];
    let i = start;
    for (const ch of incoming) {
      if (i >= LENGTH) break;
      next[i++] = ch;
    }
    setDigits(next);
    setInvalid(false);
    focusBox(Math.min(i, LENGTH - 1));
  };

  const onBoxChange = (i: number, value: string) => {
    let incoming = value.replace(/\D/g, "");
    // Typing over a selected-but-kept digit gives two characters: keep the new one.
    if (incoming.length === 2 && digits[i] && incoming.includes(digits[i])) {
      incoming = incoming.replace(digits[i], "");
    }
    if (incoming === "") {
      const next = [...digits];
      next[i] = "";
      setDigits(next);
      setInvalid(false);
      return;
    }
    fill(i, incoming);
  };

  const onBoxKeyDown = (i: number, e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Backspace" && digits[i] === "" && i > 0) {
      e.preventDefault();
      const next = [...digits];
      next[i - 1] = "";
      setDigits(next);
      focusBox(i - 1);
    } else if (e.key === "ArrowLeft" && i > 0) {
      e.preventDefault();
      focusBox(i - 1);
    } else if (e.key === "ArrowRight" && i < LENGTH - 1) {
      e.preventDefault();
      focusBox(i + 1);
    }
  };

  const onBoxPaste = (i: number, e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    fill(i, e.clipboardData.getData("text"));
  };

  const code = digits.join("");
  const complete = /^\d{4}$/.test(code);

  const onConfirm = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!complete || busy.current) return;
    busy.current = true;
    setPending(true);
    setAlert("");
    const answer = await post(confirmUrl, new URLSearchParams({ code }));
    busy.current = false;
    setPending(false);
    if (answer?.ok) {
      window.location.assign(safePath(answer.redirect, home));
      return;
    }
    if (answer) setInvalid(true);
    setAlert(answer?.message || REQUEST_FAILED);
  };

  const onResend = async () => {
    if (busy.current) return;
    busy.current = true;
    setPending(true);
    const answer = await post(resendUrl);
    busy.current = false;
    setPending(false);
    if (answer?.ok) {
      resetCode();
      startCountdown(answer.resendIn);
      focusBox(0);
      return;
    }
    setAlert(answer?.message || REQUEST_FAILED);
    if (typeof answer?.retryAfter === "number") startCountdown(answer.retryAfter);
  };

  const onEscape = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key === "Escape") {
      e.preventDefault();
      close();
    }
  };
  // Closed some other way than close() (e.g. by the browser): just forget it.
  const onNativeClose = () => {
    setDialog({ kind: "closed" });
    setDeadline(null);
  };
  // The browser's own close request (e.g. Android back) ends up here too.
  const onCancel = (e: SyntheticEvent<HTMLDialogElement>) => {
    e.preventDefault();
    close();
  };

  const isError = dialog.kind === "error";
  return (
    <dialog
      ref={dialogRef}
      className={isError ? "sms-dialog sms-dialog--error" : "sms-dialog"}
      aria-labelledby={dialog.kind === "closed" ? undefined : titleId}
      aria-describedby={dialog.kind === "closed" ? undefined : promptId}
      onKeyDown={onEscape}
      onCancel={onCancel}
      onClose={onNativeClose}
    >
      {dialog.kind === "error" && (
        <>
          <h2 id={titleId} className="sms-title">
            {dialog.title}
          </h2>
          <div id={promptId} className="sms-messages">
            {dialog.messages.map((m) => (
              <p key={m} className="sms-text">
                {m}
              </p>
            ))}
          </div>
          <div className="sms-actions">
            <button ref={closeRef} type="button" className="sms-button" onClick={close}>
              Закрыть
            </button>
          </div>
        </>
      )}
      {dialog.kind === "code" && (
        <>
          <h2 id={titleId} className="sms-title">
            Готово
          </h2>
          <p id={promptId} className="sms-text">
            Мы отправили код на номер <span className="sms-phone">{dialog.phone}</span>. Он придёт в течение
            минуты.
          </p>
          {sandboxHint && (
            <p className="sms-hint">
              <strong className="sms-hint-label">Тестовый режим: </strong>
              {sandboxHint.replaceAll("{телефон}", dialog.digits)}
            </p>
          )}
          <form className="sms-form" method="post" action={confirmUrl} noValidate onSubmit={onConfirm}>
            <fieldset className="sms-fieldset">
              <legend className="sms-legend">Код из SMS</legend>
              <div className="sms-boxes">
                {digits.map((d, i) => (
                  <input
                    key={i}
                    ref={(el) => {
                      boxes.current[i] = el;
                    }}
                    className={invalid ? "sms-box is-invalid" : "sms-box"}
                    type="text"
                    inputMode="numeric"
                    pattern="[0-9]*"
                    autoComplete={i === 0 ? "one-time-code" : "off"}
                    aria-label={`Цифра ${i + 1} из ${LENGTH}`}
                    aria-invalid={invalid || undefined}
                    aria-describedby={alert ? errorId : undefined}
                    value={d}
                    onChange={(e) => onBoxChange(i, e.currentTarget.value)}
                    onKeyDown={(e) => onBoxKeyDown(i, e)}
                    onPaste={(e) => onBoxPaste(i, e)}
                    onFocus={(e) => e.currentTarget.select()}
                  />
                ))}
              </div>
            </fieldset>
            {/* Same field the code page posts, should the form ever submit natively. */}
            <input type="hidden" name="code" value={code} />
            <p id={errorId} role="alert" className="sms-error">
              {alert}
            </p>
            <div className="sms-actions">
              <button type="submit" className="sms-button" disabled={!complete || pending}>
                Подтвердить
              </button>
            </div>
          </form>
          <div className="sms-resend">
            {remaining > 0 ? (
              <p className="sms-countdown">Отправить код повторно можно через {remaining} с</p>
            ) : (
              <button type="button" className="sms-link" disabled={pending} onClick={() => void onResend()}>
                Отправить код ещё раз
              </button>
            )}
          </div>
          <button type="button" className="sms-close" aria-label="Закрыть" onClick={close}>
            ×
          </button>
        </>
      )}
    </dialog>
  );
}
