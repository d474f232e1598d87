// Every page at a small phone, a common phone and a desktop screen: no
// sideways scroll, nothing a finger presses under 44 px, no number broken
// across lines, and a full-page screenshot of each for a person to look at
// (islands/test-results/…/<page>-<width>.png).
import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import { lastCode, newPhone, signUpWithDialog, typeCode } from "./helpers";

const WIDTHS = [320, 360, 1280];
const KINDS = ["glk", "pavilion", "aqua", "hotel", "celRoom"];

// What a finger presses: buttons, inputs, menu and header links, the
// links of the order cards and of the action rows. Links inside running
// text are left out (WCAG 2.5.8 excepts them too).
const CONTROLS = [
  "button",
  ".btn",
  "input:not([type=hidden]):not([type=radio]):not([type=checkbox])",
  "select",
  "textarea",
  "label.radio",
  "nav a",
  "header a",
  ".oc h3 a",
  ".actions > a",
].join(",");

type Layout = { scrollWidth: number; clientWidth: number; small: string[]; broken: string[] };

/** Measures the page (or, with within, one element such as a dialog). */
async function measure(page: Page, within = "html"): Promise<Layout> {
  return page.evaluate(
    ([controls, root]) => {
      const box = document.querySelector(root) as HTMLElement;
      const describe = (e: Element, h: number) =>
        `${e.tagName.toLowerCase()}.${e.className} «${(e.textContent || e.getAttribute("name") || "").trim().slice(0, 30)}» ${h.toFixed(1)}px`;
      const small: string[] = [];
      for (const e of box.querySelectorAll(controls)) {
        const r = e.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 && r.height < 43.5) small.push(describe(e, r.height));
      }
      // A number kept together (class nw) must sit on one line.
      const broken: string[] = [];
      for (const e of box.querySelectorAll(".nw")) {
        const lines = new Set([...e.getClientRects()].map((r) => Math.round(r.top)));
        // …and inside its card, not sticking out of it.
        const card = e.closest(".card, dialog, .summary, .notice");
        const out =
          card !== null &&
          e.getBoundingClientRect().right > card.getBoundingClientRect().right - parseFloat(getComputedStyle(card).paddingRight) + 0.5;
        if (lines.size > 1 || out) broken.push((e.textContent ?? "").trim());
      }
      return { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth, small, broken };
    },
    [CONTROLS, within] as const,
  );
}

async function check(page: Page, info: TestInfo, name: string, width: number): Promise<void> {
  const m = await measure(page);
  expect(m.scrollWidth, `${name} at ${width}: page width`).toBeLessThanOrEqual(m.clientWidth);
  expect(m.small, `${name} at ${width}: controls under 44 px`).toEqual([]);
  expect(m.broken, `${name} at ${width}: numbers broken or sticking out`).toEqual([]);
  await page.screenshot({ path: info.outputPath(`${name}-${width}.png`), fullPage: true });
}

/** Visits path at every width and checks it. */
async function everyWidth(page: Page, info: TestInfo, path: string, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 740 });
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    await check(page, info, name, width);
  }
}

test("every page fits 320, 360 and 1280 px, signed out and in", async ({ page }, info) => {
  test.setTimeout(120_000);
  await everyWidth(page, info, "/login", "login");
  await everyWidth(page, info, "/signup", "signup");

  // A new customer (the sandbox gives one orders of every kind), signed up
  // through the plain forms, so no other test's phone limits are touched.
  const phone = newPhone();
  const signup = await page.request.post("/signup", {
    form: { phone: phone.digits, firstName: "Константин", lastName: "Константинопольский" },
    maxRedirects: 0,
  });
  expect(signup.status()).toBe(303);
  await everyWidth(page, info, "/login/code", "code");
  const { code } = await lastCode(phone.digits);
  const confirm = await page.request.post("/login/code", { form: { code }, maxRedirects: 0 });
  expect(confirm.status()).toBe(303);

  await page.goto("/orders");
  const hrefs = await page.locator('main a[href^="/orders/"]').evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  const orders = KINDS.map((kind) => {
    const href = hrefs.find((h) => h.startsWith(`/orders/${kind}/`) && h.split("/").length === 4);
    expect(href, `a ${kind} order`).toBeTruthy();
    return href as string;
  });
  await everyWidth(page, info, "/", "home");
  await everyWidth(page, info, "/orders", "orders");
  for (const [i, href] of orders.entries()) await everyWidth(page, info, href, `order-${KINDS[i]}`);
  await everyWidth(page, info, "/profile/edit", "profile");
});

test("the code dialog fits a phone and shows the whole outbox address", async ({ page }, info) => {
  for (const width of [320, 360]) {
    await page.setViewportSize({ width, height: 740 });
    const phone = newPhone();
    const dialog = await signUpWithDialog(page, phone, "Анна", "Петрова");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("Код из SMS")).toBeVisible();
    const inside = await measure(page, "dialog[open]");
    expect(inside.scrollWidth, `dialog at ${width}: width`).toBeLessThanOrEqual(inside.clientWidth);
    expect(inside.small, `dialog at ${width}: controls under 44 px`).toEqual([]);
    const whole = await measure(page);
    expect(whole.scrollWidth, `page under the dialog at ${width}`).toBeLessThanOrEqual(whole.clientWidth);
    const hint = page.locator(".sms-hint");
    if ((await hint.count()) > 0) {
      const [h, d] = await Promise.all([hint.boundingBox(), dialog.boundingBox()]);
      expect(h && d && h.x + h.width <= d.x + d.width, `the hint inside the dialog at ${width}`).toBeTruthy();
      await expect(hint).toContainText(`/sandbox/sms/${phone.digits}.`);
    }
    await page.screenshot({ path: info.outputPath(`dialog-${width}.png`) });
    // Finish the sign-up so the phone's code is used.
    await typeCode(page, (await lastCode(phone.digits)).code);
    await dialog.getByRole("button", { name: "Подтвердить" }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.context().clearCookies();
  }
});
