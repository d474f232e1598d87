import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { lastCode, newPhone, signUpWithDialog, typeCode } from "./helpers";

const DEMO = { digits: "79000000000", typed: "9000000000" };

test.describe("sign-in with JavaScript on", () => {
  test("through the code dialog, on a 360 px screen", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/login");
    await expect(page.locator('[data-island="sms-code"]')).toHaveAttribute("data-island-state", "waiting");
    await page.getByLabel("Номер телефона").pressSequentially(DEMO.typed);
    await expect(page.getByLabel("Номер телефона")).toHaveValue("+7 (900) 000-00-00");
    await page.getByRole("button", { name: "Войти" }).click();

    // The click brought the island and went to it: the dialog, not the code page.
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Готово" })).toBeVisible();
    await expect(page.locator('[data-island="sms-code"]')).toHaveAttribute("data-island-state", "mounted");
    await expect(page).toHaveURL(/\/login$/);
    await expect(dialog).toContainText("+7 (900) ***-**-00");
    const confirm = dialog.getByRole("button", { name: "Подтвердить" });
    await expect(confirm).toBeDisabled();
    const { code } = await lastCode(DEMO.digits);
    await typeCode(page, code);
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Здравствуйте, Иван");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
  });

  test("a wrong code turns the boxes red, and a new code after the countdown works", async ({ page }) => {
    const phone = newPhone();
    // Register with the dialog, then drive the dialog's clock instead of waiting.
    await page.clock.install();
    const dialog = await signUpWithDialog(page, phone, "Ольга", "Лебедева");
    await expect(dialog.getByRole("heading", { name: "Готово" })).toBeVisible();

    const first = await lastCode(phone.digits);
    await typeCode(page, first.code === "0000" ? "1111" : "0000");
    await dialog.getByRole("button", { name: "Подтвердить" }).click();
    await expect(dialog.getByRole("alert")).not.toBeEmpty();
    await expect(page.getByLabel("Цифра 1 из 4")).toHaveClass(/is-invalid/);
    await expect(page.getByLabel("Цифра 1 из 4")).toHaveAttribute("aria-invalid", "true");

    const resend = dialog.getByRole("button", { name: "Отправить код ещё раз" });
    await expect(resend).toBeHidden();
    await page.clock.runFor(3_000); // the server's wait (2 s here) and the dialog's countdown
    await page.waitForTimeout(2_100); // the server counts real seconds
    await expect(resend).toBeVisible();
    await resend.click();
    await expect(page.getByLabel("Цифра 1 из 4")).toHaveValue("");
    await expect(dialog.locator(".sms-countdown")).toBeVisible();
    const second = await lastCode(phone.digits);
    expect(second.sentAt).not.toBe(first.sentAt);
    await typeCode(page, second.code);
    await dialog.getByRole("button", { name: "Подтвердить" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Здравствуйте, Ольга");
  });

  test("the SMS pasted whole fills the four boxes and signs in", async ({ page }) => {
    const phone = newPhone();
    const dialog = await signUpWithDialog(page, phone, "Вера", "Соколова");
    await expect(dialog.getByRole("heading", { name: "Готово" })).toBeVisible();
    const { code } = await lastCode(phone.digits);
    await page.getByLabel("Цифра 1 из 4").evaluate((box, text) => {
      const data = new DataTransfer();
      data.setData("text/plain", text);
      box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }, `Ваш код: ${code}`);
    for (const [i, digit] of [...code].entries()) await expect(page.getByLabel(`Цифра ${i + 1} из 4`)).toHaveValue(digit);
    await dialog.getByRole("button", { name: "Подтвердить" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Здравствуйте, Вера");
  });

  test("a refused phone opens 'Ой!'", async ({ page }) => {
    await page.goto("/login");
    await expect(page.locator('[data-island="sms-code"]')).toHaveAttribute("data-island-state", "waiting");
    await page.getByLabel("Номер телефона").pressSequentially("9990000000");
    await page.getByRole("button", { name: "Войти" }).click();
    await expect(page.getByRole("dialog").getByRole("heading", { name: "Ой!" })).toBeVisible();
  });
});

test.describe("sign-in with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("forms only: sign up, wrong code, right code, sign out", async ({ page, context }) => {
    const phone = newPhone();
    await page.goto("/signup");
    await page.getByLabel("Номер телефона").fill(phone.typed);
    await page.getByLabel("Имя").fill("Пётр");
    await page.getByRole("button", { name: "Зарегистрироваться" }).click();
    await expect(page.locator("#error-summary")).toContainText("Пожалуйста, заполните все обязательные поля.");
    await expect(page.getByLabel("Имя")).toHaveValue("Пётр");
    await page.getByLabel("Фамилия").fill("Орлов");
    await page.getByRole("button", { name: "Зарегистрироваться" }).click();

    await expect(page.getByRole("heading", { name: "Готово" })).toBeVisible();
    const { code } = await lastCode(phone.digits);
    await page.getByLabel("Код из SMS").fill(code === "0000" ? "1111" : "0000");
    await page.getByRole("button", { name: "Подтвердить" }).click();
    await expect(page.getByLabel("Код из SMS")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Код из SMS").fill(`${code.slice(0, 2)} ${code.slice(2)}`);
    await page.getByRole("button", { name: "Подтвердить" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Здравствуйте, Пётр");

    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === "__Host-lk_session");
    expect(session?.httpOnly).toBe(true);
    expect(session?.secure).toBe(true);
    expect(session?.sameSite).toBe("Lax");

    await page.getByRole("button", { name: "Выйти" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("the SMS pasted whole into the code field signs in", async ({ page }) => {
    const phone = newPhone();
    await page.goto("/signup");
    await page.getByLabel("Номер телефона").fill(phone.typed);
    await page.getByLabel("Имя").fill("Инна");
    await page.getByLabel("Фамилия").fill("Белова");
    await page.getByRole("button", { name: "Зарегистрироваться" }).click();
    await expect(page.getByRole("heading", { name: "Готово" })).toBeVisible();
    const { code } = await lastCode(phone.digits);
    const field = page.getByLabel("Код из SMS");
    await field.fill(`Ваш код: ${code}`);
    await expect(field).toHaveValue(`Ваш код: ${code}`); // not cut by the field's length
    await page.getByRole("button", { name: "Подтвердить" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Здравствуйте, Инна");
  });

  test("the code step and sign-up have no axe violations", async ({ browser, baseURL }) => {
    // axe needs JavaScript in the page; refuse the page's own scripts instead.
    const context = await browser.newContext({ baseURL, javaScriptEnabled: true });
    const page = await context.newPage();
    await page.route("**/*", (r) => (r.request().resourceType() === "script" ? r.abort() : r.continue()));
    await page.goto("/signup");
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.getByRole("button", { name: "Зарегистрироваться" }).click(); // errors shown
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    const phone = newPhone();
    await page.getByLabel("Номер телефона").fill(phone.typed);
    await page.getByLabel("Имя").fill("Анна");
    await page.getByLabel("Фамилия").fill("Зайцева");
    await page.getByRole("button", { name: "Зарегистрироваться" }).click();
    await expect(page.getByRole("heading", { name: "Готово" })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await context.close();
  });
});
