import { existsSync } from "node:fs";
import { chromium, defineConfig } from "@playwright/test";

// The browser: LK_CHROMIUM when set, else Debian's Chromium, else
// Playwright's own when it is installed (scripts/deps picks it the same way
// and stops `make test` with the install command when none is there).
function browserPath(): string | undefined {
  const own = process.env.LK_CHROMIUM;
  if (own) {
    if (!existsSync(own)) {
      throw new Error(`LK_CHROMIUM=${own} does not exist: point it at Chrome or Chromium, or unset it and run: apt-get install -y chromium`);
    }
    return own;
  }
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  if (existsSync(chromium.executablePath())) return undefined; // Playwright's own
  return "/usr/bin/chromium"; // missing: the launch error names it
}

// The server is started by e2e/global-setup.ts (from ../bin/lk, so run
// `go build -o bin/lk ./cmd/lk` first), which puts its address in
// LK_E2E_URL. Workers load this file again after global setup, so they see
// it. Set LK_E2E_URL (and LK_E2E_SANDBOX) yourself to test a running server.
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  workers: 1,
  retries: 0,
  reporter: "line",
  use: {
    baseURL: process.env.LK_E2E_URL,
    browserName: "chromium",
    locale: "ru-RU",
    // The resort's zone, whatever the machine's; LK_E2E_TZ puts the browser
    // elsewhere, to show the islands take "today" from the server only.
    timezoneId: process.env.LK_E2E_TZ || "Europe/Moscow",
    launchOptions: {
      executablePath: browserPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
