import { dayName } from "../calendar/days";
import type { Locator, Page } from "@playwright/test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The last SMS code the sandbox sent to phone digits (79001234567). */
export async function lastCode(digits: string): Promise<{ code: string; sentAt: string }> {
  const sandbox = process.env.LK_E2E_SANDBOX;
  if (!sandbox) throw new Error("e2e: LK_E2E_SANDBOX is not set");
  const res = await fetch(`${sandbox}/sandbox/sms/${digits}`);
  if (!res.ok) throw new Error(`e2e: no code for ${digits}: ${res.status}`);
  return res.json();
}

/** A fresh Russian mobile number per call, so tests never share a phone's limits. */
let seq = 0;
export function newPhone(): { digits: string; typed: string } {
  const n = String((Date.now() * 10 + seq++) % 10_000_000).padStart(7, "0");
  const digits = `7901${n}`;
  return { digits, typed: `+7 (901) ${n.slice(0, 3)}-${n.slice(3, 5)}-${n.slice(5)}` };
}

/** Signs up a new customer through the plain forms (the sandbox gives one
 *  orders of every kind, and no other test's orders or phone limits are
 *  touched) and opens the order list. */
export async function signUpNew(page: Page, first: string, last: string): Promise<void> {
  const { digits } = newPhone();
  const r1 = await page.request.post("/signup", { form: { phone: digits, firstName: first, lastName: last }, maxRedirects: 0 });
  if (r1.status() !== 303) throw new Error(`e2e: POST /signup answered ${r1.status()}`);
  const r2 = await page.request.post("/login/code", { form: { code: (await lastCode(digits)).code }, maxRedirects: 0 });
  if (r2.status() !== 303) throw new Error(`e2e: POST /login/code answered ${r2.status()}`);
  await page.goto("/orders");
}

/** Registers a new phone on the sign-up page with JavaScript on, and answers the code dialog it opens. */
export async function signUpWithDialog(page: Page, phone: { digits: string }, first: string, last: string): Promise<Locator> {
  await page.goto("/signup");
  await page.getByLabel("Номер телефона").pressSequentially(phone.digits.slice(1));
  await page.getByLabel("Имя").fill(first);
  await page.getByLabel("Фамилия").fill(last);
  await page.getByRole("button", { name: "Зарегистрироваться" }).click();
  return page.getByRole("dialog");
}

/** Types a code into the dialog's four boxes. */
export async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByLabel("Цифра 1 из 4").click();
  await page.keyboard.type(code);
}

/**
 * Where a signed-in session of a phone is kept between spec files: a phone
 * may get only 5 SMS codes in 2 hours, and the suite signs the
 * demo customer in from many files. Keyed by the server, so every run of
 * the suite starts afresh.
 */
function sessionFile(digits: string): string {
  const port = new URL(process.env.LK_E2E_URL ?? "http://127.0.0.1:0").port;
  return join(tmpdir(), `lk-e2e-${port}-${digits}.json`);
}

/**
 * Signs the page's context in as phone: with the session an earlier spec
 * file made, while it is still good, else through the plain forms.
 */
export async function signInByForm(page: Page, digits: string): Promise<void> {
  const file = sessionFile(digits);
  if (existsSync(file)) {
    await page.context().addCookies(JSON.parse(readFileSync(file, "utf8")));
    const r = await page.request.get("/orders", { maxRedirects: 0 });
    if (r.status() === 200) return;
    await page.context().clearCookies();
  }
  await signInWithCode(page, digits);
  writeFileSync(file, JSON.stringify(await page.context().cookies()));
}

/** Signs the page's context in as phone through the plain forms (no dialog), with a new code. */
export async function signInWithCode(page: Page, digits: string): Promise<void> {
  let r1 = await page.request.post("/login", { form: { phone: digits }, maxRedirects: 0 });
  if (r1.status() === 429) {
    // The previous test asked for this phone's code moments ago: wait as told.
    const wait = Number(r1.headers()["retry-after"] ?? "2");
    await new Promise((r) => setTimeout(r, wait * 1000 + 100));
    r1 = await page.request.post("/login", { form: { phone: digits }, maxRedirects: 0 });
  }
  if (r1.status() !== 303) throw new Error(`e2e: POST /login answered ${r1.status()}`);
  const { code } = await lastCode(digits);
  const r2 = await page.request.post("/login/code", { form: { code }, maxRedirects: 0 });
  if (r2.status() !== 303) throw new Error(`e2e: POST /login/code answered ${r2.status()}`);
}

/** Clicks the calendar's day iso (shown first with flatpickr's own
 *  jumpToDate); false when the day cannot be chosen. */
export async function clickDay(page: Page, iso: string): Promise<boolean> {
  const found = await page.evaluate((iso) => {
    const input = document.querySelector(".cal input") as (HTMLInputElement & { _flatpickr?: { jumpToDate(d: Date): void } }) | null;
    input?._flatpickr?.jumpToDate(new Date(`${iso}T12:00:00`));
    document.querySelectorAll("[data-e2e-day]").forEach((el) => el.removeAttribute("data-e2e-day"));
    for (const el of document.querySelectorAll<HTMLElement & { dateObj?: Date }>(".cal .flatpickr-day:not(.prevMonthDay):not(.nextMonthDay)")) {
      const d = el.dateObj;
      if (!d) continue;
      const s = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
      if (s === iso) {
        if (el.classList.contains("flatpickr-disabled")) return "disabled";
        el.setAttribute("data-e2e-day", "");
        return "found";
      }
    }
    return "";
  }, iso);
  if (!found) throw new Error(`day ${iso} not in the calendar`);
  if (found === "disabled") return false;
  await page.locator("[data-e2e-day]").click();
  return true;
}

/** Taps day iso in the server's month (the calendar with JavaScript off, or
 *  before the island): its link, named as a Russian speaker says the day,
 *  after turning to its month by the arrows if it is not shown; false when
 *  the day is shown but cannot be tapped. */
export async function tapDay(page: Page, iso: string): Promise<boolean> {
  const month = (ym: string) => Number(ym.slice(0, 4)) * 12 + Number(ym.slice(5, 7));
  for (let turn = 0; turn < 3; turn++) {
    const first = month((await page.locator(".sm").getAttribute("data-month")) ?? "");
    const want = month(iso);
    let arrow = want < first ? "Предыдущий месяц" : want > first + 1 ? "Следующий месяц" : "";
    if (!arrow) {
      const link = page.locator(".sm").getByRole("link", { name: new RegExp(`^${dayName(iso)}`) });
      if ((await link.count()) > 0) {
        await link.first().click();
        return true;
      }
      // the second month is not shown on a phone with JavaScript on
      if (want === first || !(await page.locator(".sm-2").isHidden())) return false;
      arrow = "Следующий месяц";
    }
    const next = page.getByRole("link", { name: arrow });
    if ((await next.count()) === 0) return false;
    await next.first().click();
  }
  return false;
}
