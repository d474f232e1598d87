import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import SmsCode, { type SmsCodeProps } from "./SmsCode";

const props: SmsCodeProps = {
  mode: "login",
  form: "#login-form",
  requestUrl: "/login",
  confirmUrl: "/login/code",
  resendUrl: "/login/resend",
  home: "/",
};

type Reply = { status: number; body: unknown } | "network" | "html";
let replies: Record<string, Reply[]>;
let fetchMock: ReturnType<typeof vi.fn>;

function reply(url: string, ...r: Reply[]) {
  replies[url] = [...(replies[url] ?? []), ...r];
}

// A minimal Response: the component uses only ok, status and json().
function respond(r: Reply) {
  if (r === "network") return Promise.reject(new TypeError("Failed to fetch"));
  if (r === "html") {
    return Promise.resolve({ ok: false, status: 502, json: () => Promise.reject(new SyntaxError("Unexpected token <")) });
  }
  return Promise.resolve({ ok: r.status >= 200 && r.status < 300, status: r.status, json: () => Promise.resolve(r.body) });
}

// Lets fetch promises and React updates settle without real time passing.
async function settle() {
  await act(async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  });
}

function pageForm() {
  document.body.innerHTML = `
    <form id="login-form" method="post" action="/login">
      <label for="phone">Телефон</label>
      <input id="phone" name="phone" type="tel" value="+7 (900) 000-00-00">
      <button id="login-submit">Войти</button>
    </form>`;
  return document.getElementById("login-form") as HTMLFormElement;
}

async function openCodeDialog(extra: Partial<SmsCodeProps> = {}) {
  const form = pageForm();
  reply("/login", { status: 200, body: { ok: true, phone: "+7 (900) ***-**-00", resendIn: 60 } });
  render(<SmsCode {...props} {...extra} />);
  fireEvent.submit(form);
  await settle();
  return form;
}

const boxes = () => [1, 2, 3, 4].map((n) => screen.getByLabelText(`Цифра ${n} из 4`) as HTMLInputElement);
const confirmButton = () => screen.getByRole("button", { name: "Подтвердить" }) as HTMLButtonElement;

beforeEach(() => {
  vi.useFakeTimers();
  replies = {};
  fetchMock = vi.fn((url: string) => {
    const next = replies[url]?.shift();
    if (!next) throw new Error(`unexpected fetch ${url}`);
    return respond(next);
  });
  vi.stubGlobal("fetch", fetchMock);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("SmsCode", () => {
  // The server's hint names the outbox with a {телефон} slot: the dialog
  // fills it with the number typed, as the server keeps it.
  it("shows the sandbox outbox address of the number typed", async () => {
    await openCodeDialog({ sandboxHint: "SMS не отправляются, код можно посмотреть по адресу http://127.0.0.1:8090/sandbox/sms/{телефон}." });
    const dialog = screen.getByRole("dialog", { name: "Готово" });
    expect(dialog.textContent).toContain("по адресу http://127.0.0.1:8090/sandbox/sms/79000000000.");
    expect(dialog.textContent).not.toContain("{телефон}");
  });

  it("posts the page form's fields to requestUrl and opens the code dialog", async () => {
    await openCodeDialog({ sandboxHint: "Код смотрите в /sandbox/sms/79000000000" });

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/login");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("same-origin");
    expect(init.headers).toEqual({ Accept: "application/json" });
    expect(String(init.body)).toBe("phone=%2B7+%28900%29+000-00-00");

    const dialog = screen.getByRole("dialog", { name: "Готово" }) as HTMLDialogElement;
    expect(dialog.open).toBe(true);
    expect(dialog).toHaveProperty("className", "sms-dialog");
    expect(dialog.textContent).toContain("Мы отправили код на номер +7 (900) ***-**-00. Он придёт в течение минуты.");
    expect(dialog.textContent).toContain("Тестовый режим: Код смотрите в /sandbox/sms/79000000000");
    const [first, ...rest] = boxes();
    expect(document.activeElement).toBe(first);
    expect(first.getAttribute("autocomplete")).toBe("one-time-code");
    for (const b of [first, ...rest]) expect(b.getAttribute("inputmode")).toBe("numeric");
  });

  it("counts down 60 s, then offers a resend that restarts the timer and clears the code", async () => {
    await openCodeDialog();
    expect(screen.getByText("Отправить код повторно можно через 60 с")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Отправить код ещё раз" })).toBeNull();

    await act(async () => void vi.advanceTimersByTime(1000));
    expect(screen.getByText("Отправить код повторно можно через 59 с")).toBeTruthy();
    await act(async () => void vi.advanceTimersByTime(58_000));
    expect(screen.getByText("Отправить код повторно можно через 1 с")).toBeTruthy();
    await act(async () => void vi.advanceTimersByTime(1000));
    expect(screen.queryByText(/Отправить код повторно можно через/)).toBeNull();

    fireEvent.input(boxes()[0], { target: { value: "5" } });
    expect(boxes()[0].value).toBe("5");

    reply("/login/resend", { status: 200, body: { ok: true, resendIn: 60 } });
    fireEvent.click(screen.getByRole("button", { name: "Отправить код ещё раз" }));
    await settle();
    expect(fetchMock).toHaveBeenLastCalledWith("/login/resend", expect.objectContaining({ method: "POST" }));
    expect(screen.getByText("Отправить код повторно можно через 60 с")).toBeTruthy();
    expect(boxes().map((b) => b.value)).toEqual(["", "", "", ""]);
    expect(document.activeElement).toBe(boxes()[0]);
  });

  it("shows a refused resend and waits retryAfter seconds", async () => {
    await openCodeDialog();
    await act(async () => void vi.advanceTimersByTime(60_000));
    reply("/login/resend", { status: 429, body: { ok: false, message: "Повторить можно через 42 с.", retryAfter: 42 } });
    fireEvent.click(screen.getByRole("button", { name: "Отправить код ещё раз" }));
    await settle();
    expect(screen.getByRole("alert").textContent).toBe("Повторить можно через 42 с.");
    expect(screen.getByText("Отправить код повторно можно через 42 с")).toBeTruthy();
  });

  it.each(["1234", "12 34", "12-34", " 1234 ", "Ваш код: 1234", "Код 1234"])("fills all four boxes from a paste of %j into any box", async (text) => {
    await openCodeDialog();
    fireEvent.paste(boxes()[2], { clipboardData: { getData: () => text } });
    expect(boxes().map((b) => b.value)).toEqual(["1", "2", "3", "4"]);
    expect(confirmButton().disabled).toBe(false);
  });

  it("keeps Подтвердить disabled until four digits, advancing and going back between boxes", async () => {
    await openCodeDialog();
    expect(confirmButton().disabled).toBe(true);
    for (const [i, d] of ["1", "2", "3"].entries()) {
      fireEvent.input(boxes()[i], { target: { value: d } });
      expect(document.activeElement).toBe(boxes()[i + 1]);
      expect(confirmButton().disabled).toBe(true);
    }
    fireEvent.input(boxes()[3], { target: { value: "x" } });
    expect(boxes()[3].value).toBe("");
    expect(confirmButton().disabled).toBe(true);

    fireEvent.keyDown(boxes()[3], { key: "Backspace" });
    expect(document.activeElement).toBe(boxes()[2]);
    expect(boxes().map((b) => b.value)).toEqual(["1", "2", "", ""]);

    fireEvent.input(boxes()[2], { target: { value: "3" } });
    fireEvent.input(boxes()[3], { target: { value: "4" } });
    expect(confirmButton().disabled).toBe(false);
  });

  it("accepts a whole code autofilled into the first box", async () => {
    await openCodeDialog();
    fireEvent.input(boxes()[0], { target: { value: "9876" } });
    expect(boxes().map((b) => b.value)).toEqual(["9", "8", "7", "6"]);
  });

  it("marks the boxes red and announces the message when the code is wrong", async () => {
    await openCodeDialog();
    fireEvent.paste(boxes()[0], { clipboardData: { getData: () => "0000" } });
    reply("/login/code", { status: 422, body: { ok: false, message: "Неверный код. Осталось попыток: 2." } });
    fireEvent.click(confirmButton());
    await settle();

    const [url, init] = fetchMock.mock.calls.at(-1)!;
    expect(url).toBe("/login/code");
    expect(String(init.body)).toBe("code=0000");
    for (const b of boxes()) {
      expect(b.classList.contains("is-invalid")).toBe(true);
      expect(b.getAttribute("aria-invalid")).toBe("true");
    }
    expect(screen.getByRole("alert").textContent).toBe("Неверный код. Осталось попыток: 2.");
  });

  it.each([
    { name: "goes to the redirect after a right code", extra: {}, redirect: "/", goes: "/" },
    { name: "never follows a redirect off the site", extra: { home: "/home" }, redirect: "//evil.example/", goes: "/home" },
  ])("$name", async ({ extra, redirect, goes }) => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    await openCodeDialog(extra);
    fireEvent.paste(boxes()[0], { clipboardData: { getData: () => "1234" } });
    reply("/login/code", { status: 200, body: { ok: true, redirect } });
    fireEvent.click(confirmButton());
    await settle();
    expect(assign).toHaveBeenCalledWith(goes);
  });

  it("shows 'Ой!' with the server's message when the request is refused", async () => {
    const form = pageForm();
    reply("/login", {
      status: 422,
      body: { ok: false, title: "Ой!", message: "Введите номер телефона.", fields: { phone: "Введите номер телефона." } },
    });
    render(<SmsCode {...props} />);
    const submit = document.getElementById("login-submit")!;
    fireEvent.submit(form);
    await settle();

    const dialog = screen.getByRole("dialog", { name: "Ой!" }) as HTMLDialogElement;
    expect(dialog.open).toBe(true);
    expect(dialog.classList.contains("sms-dialog--error")).toBe(true);
    expect(dialog.textContent).toContain("Введите номер телефона.");
    expect(document.getElementById("phone")!.getAttribute("aria-invalid")).toBe("true");
    const close = screen.getByRole("button", { name: "Закрыть" });
    expect(document.activeElement).toBe(close);

    fireEvent.click(close);
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(submit);
  });

  it.each(["network", "html"] as const)("says the request failed on a %s failure", async (kind) => {
    const form = pageForm();
    reply("/login", kind);
    render(<SmsCode {...props} />);
    fireEvent.submit(form);
    await settle();
    screen.getByRole("dialog", { name: "Ой!" });
    expect(screen.getByText("Не удалось выполнить запрос. Попробуйте позже.")).toBeTruthy();
  });

  it("closes on Escape and gives focus back to the form's button", async () => {
    await openCodeDialog();
    const dialog = screen.getByRole("dialog", { name: "Готово" }) as HTMLDialogElement;
    fireEvent.keyDown(boxes()[1], { key: "Escape" });
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(document.getElementById("login-submit"));
  });
});
