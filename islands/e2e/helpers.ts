import type { Page } from "@playwright/test";

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

/** Types a code into the dialog's four boxes. */
export async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByLabel("Цифра 1 из 4").click();
  await page.keyboard.type(code);
}

/** Signs the page's context in as phone through the plain forms (no dialog). */
export async function signInByForm(page: Page, digits: string): Promise<void> {
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
