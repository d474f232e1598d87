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
