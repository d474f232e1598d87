// 'Добавить в Wallet' in the order's buttons, with JavaScript on and off: a plain
// link that a desktop browser downloads (an iPhone's Safari shows the pass
// instead), leaving the order page as it was. The passes' signatures and
// codes are checked by the Go tests (handlers/order_pass_test.go); here,
// what a customer's browser does with the link.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "./fixtures";
import { signInByForm } from "./helpers";

const DEMO = "79000000000";
// One sign-in for the whole file: the demo phone gets at most 5 codes in
// 2 hours, and the other spec files use it too.
const STATE = join(mkdtempSync(join(tmpdir(), "wallet-state-")), "state.json");

test.use({ storageState: STATE });

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ baseURL: process.env.LK_E2E_URL, storageState: { cookies: [], origins: [] } });
  await signInByForm(await context.newPage(), DEMO);
  await context.storageState({ path: STATE });
  await context.close();
});

// The demo's orders with a pass: the file the link gives, and a name each
// holds (a pass's pass.json; a bundle's passes, by serial).
const ORDERS = [
  { page: "/orders/aqua/300001", file: "aqua-300001.pkpasses", holds: ["aqua-300001-", ".pkpass"], doc: "Мой билет" },
  // VIP tickets, one refunded and left out (refund.spec refunds the visit
  // of today, 300005, so it is not used here; the Go tests check a single
  // ticket's .pkpass)
  { page: "/orders/aqua/300004", file: "aqua-300004.pkpasses", holds: ["aqua-300004-", ".pkpass"], doc: "Мой билет" },
  { page: "/orders/hotel/400001", file: "hotel-400001.pkpass", holds: ["pass.json", "signature", "icon.png"], doc: "Мой ваучер" },
  { page: "/orders/glk/100001", file: "glk-100001.pkpass", holds: ["pass.json", "signature", "logo@2x.png"], doc: "" },
];

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("each order's Wallet link gives its passes and leaves the page", async ({ page }) => {
      const dir = mkdtempSync(join(tmpdir(), "wallet-"));
      for (const o of ORDERS) {
        expect((await page.goto(o.page))?.status()).toBe(200);
        const link = page.locator("article .actions").getByRole("link", { name: "Добавить в Wallet" });
        await expect(link).toBeVisible();
        expect(await link.getAttribute("download")).toBeNull();
        // In the same row of buttons as the PDF, after the order's own
        // actions (a phone shows those on its first screen), before the
        // calendar's.
        if (o.doc) await expect(page.locator("article .actions [data-action=document]")).toHaveText(o.doc);
        await expect(page.locator("article .actions [data-action=wallet] + [data-action=calendar]")).toHaveCount(1);
        const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
        expect(download.suggestedFilename()).toBe(o.file);
        const file = join(dir, o.file);
        await download.saveAs(file);
        const body = readFileSync(file);
        expect(body.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04"); // a zip
        const names = body.toString("latin1");
        for (const n of o.holds) expect(names, `${o.file} holds ${n}`).toContain(n);
        // The order page stays, usable.
        await expect(page).toHaveURL(new RegExp(`${o.page}$`));
        await expect(page.locator("h1")).toBeVisible();
      }
    });

    test("a cancelled or past booking offers no pass, and its pass is refused with the reason", async ({ page }) => {
      for (const [order, file, reason] of [
        ["/orders/aqua/300003", "tickets.pkpasses", "Заказ отменён, поэтому его пропуск в Wallet недействителен."],
        ["/orders/glk/100005", "lesson.pkpass", "Заказ уже прошёл: пропуск в Wallet бывает только у предстоящего."],
      ]) {
        await page.goto(order);
        await expect(page.getByRole("link", { name: "Добавить в Wallet" })).toHaveCount(0);
        const res = await page.goto(`${order}/${file}`);
        expect(res?.status()).toBe(410);
        await expect(page.locator("main")).toContainText(reason);
      }
    });
  });
}
