// The test and expect of every spec. With LK_TEST_NOW (the runs around
// midnight of `make e2e-midnight` and `make test-days`) the browser's clock stands where the
// server's does (global-setup gives the server LK_FAKE_NOW), so both agree
// on the instant; the browser's zone (LK_E2E_TZ, playwright.config.ts) may
// still differ from the resort's, which the islands must not mind.
import { test as base } from "@playwright/test";

export { expect } from "@playwright/test";

export const test = base.extend<{ fakeClock: void }>({
  fakeClock: [
    async ({ context }, use) => {
      const now = process.env.LK_TEST_NOW;
      if (now) await context.clock.setFixedTime(new Date(now));
      await use();
    },
    { auto: true },
  ],
});
