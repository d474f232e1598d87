// The ticket at the gate (issue 13): the water-park order's page draws each
// paid ticket's QR code as inline SVG; a real reader (zbarimg) decodes the
// browser's pixels to the same content as the ticket PDF's QR codes.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "./fixtures";
import { signInByForm } from "./helpers";

const DEMO = "79000000000";
// One sign-in for the whole file: the demo phone gets at most 5 codes in
// 2 hours, and the other spec files use it too.
const STATE = join(mkdtempSync(join(tmpdir(), "gate-state-")), "state.json");
const PAID = "/orders/aqua/300001";
const UNPAID = "/orders/aqua/300002";
// The sandbox's barcodes of 300001's three paid tickets (gateway/sandbox/seed.go).
const CODES = ["4600300001001", "4600300001002", "4600300001003"];

test.use({ storageState: STATE });

test.beforeAll(async ({ browser }) => {
  // An empty state: the file this writes is not there yet.
  const context = await browser.newContext({
    baseURL: process.env.LK_E2E_URL,
    storageState: { cookies: [], origins: [] },
  });
  const page = await context.newPage();
  await signInByForm(page, DEMO);
  await context.storageState({ path: STATE });
  await context.close();
});

/** Every QR code zbarimg finds in the PNG files, sorted. */
function decode(...files: string[]): string[] {
  const out = execFileSync("zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", ...files], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"], // zbarimg complains on stderr that there is no D-Bus here
  });
  return out.split("\n").map((s) => s.trim()).filter(Boolean).sort();
}

for (const width of [360, 1280]) {
  test.describe(`the gate codes at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 }, javaScriptEnabled: false });

    test("one code per paid ticket, read from the screen as in the PDF", async ({ page }, info) => {
      const res = await page.goto(PAID);
      expect(res?.status()).toBe(200);
      // The codes are the server's drawing: no island on the page. Its only
      // scripts tell the browser what comes next (the speculation rules, and
      // islands/next inline: the move's files fetched ahead), and JavaScript
      // is off here anyway.
      expect(await page.locator("[data-island]").count()).toBe(0);
      const scripts = await page.locator("script").evaluateAll((all) =>
        all.map((s) => (s.getAttribute("type") === "speculationrules" ? "rules" : s.id === "next-script" ? "next" : (s.getAttribute("src") ?? "inline"))),
      );
      expect(scripts.filter((s) => s !== "rules" && s !== "next")).toEqual([]);

      const codes = page.locator(".tickets svg.qr");
      await expect(codes).toHaveCount(CODES.length);
      // No sideways scroll, and each code drawn whole and large enough.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      for (let i = 0; i < CODES.length; i++) {
        const box = await codes.nth(i).boundingBox();
        expect(box, `code ${i + 1}`).not.toBeNull();
        expect(box!.width).toBeGreaterThanOrEqual(180);
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      }

      // The whole page as the customer sees it, and each code on its own.
      const shot = info.outputPath(`aqua-300001-${width}.png`);
      await page.screenshot({ path: shot, fullPage: true });
      expect(decode(shot)).toEqual(CODES);
      for (let i = 0; i < CODES.length; i++) {
        const one = info.outputPath(`aqua-300001-${width}-code-${i + 1}.png`);
        await codes.nth(i).screenshot({ path: one });
        expect(decode(one), `code ${i + 1}`).toEqual([CODES[i]]);
        await expect(page.locator(".tickets figure.gate figcaption").nth(i)).toHaveText(CODES[i]);
      }

      // The same content as the QR codes of the ticket PDF.
      const pdf = await page.request.get(`${PAID}/ticket.pdf`);
      expect(pdf.status()).toBe(200);
      const dir = mkdtempSync(join(tmpdir(), "gate-"));
      writeFileSync(join(dir, "t.pdf"), await pdf.body());
      execFileSync("pdftoppm", ["-r", "150", "-png", join(dir, "t.pdf"), join(dir, "p")], { stdio: "ignore" });
      const pages = readdirSync(dir).filter((f) => f.endsWith(".png")).map((f) => join(dir, f));
      expect(decode(...pages)).toEqual(CODES);
    });
  });
}

test.describe("tickets that let no one in", () => {
  test.use({ javaScriptEnabled: false });

  test("an order awaiting payment shows no code", async ({ page }) => {
    expect((await page.goto(UNPAID))?.status()).toBe(200);
    await expect(page.locator(".tickets li")).toHaveCount(2);
    await expect(page.locator("main svg")).toHaveCount(0); // the header's logo is the page's only drawing
  });
});

test.describe("Добавить в календарь", () => {
  test.use({ javaScriptEnabled: false });

  test("the active bookings link to their .ics", async ({ page }) => {
    for (const path of ["/orders/glk/100001", "/orders/pavilion/200001", "/orders/celRoom/210001", PAID, "/orders/hotel/400001"]) {
      await page.goto(path);
      const link = page.getByRole("link", { name: "Добавить в календарь" });
      await expect(link, path).toHaveAttribute("href", `${path}/calendar.ics`);
      const ics = await page.request.get(`${path}/calendar.ics`);
      expect(ics.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
      const text = await ics.text();
      expect(text.match(/^BEGIN:VEVENT\r$/gm)).toHaveLength(1);
      expect(text).toMatch(/^UID:.+@lk\r$/m);
      expect(text).toMatch(/^DTSTAMP:\d{8}T\d{6}Z\r$/m);
      expect(text).toMatch(/^DTSTART:\d{8}T\d{6}Z\r$/m);
    }
  });
});
