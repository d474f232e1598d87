import { defineConfig } from "@playwright/test";

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
    launchOptions: {
      // Debian's Chromium; Playwright's own browsers cannot be downloaded here.
      executablePath: "/usr/bin/chromium",
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
