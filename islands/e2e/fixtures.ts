// The test and expect of every spec. With LK_TEST_NOW (the runs around
// midnight of `make e2e-midnight` and `make test-days`) the browser's clock stands where the
// server's does (global-setup gives the server LK_FAKE_NOW), so both agree
// on the instant; the browser's zone (LK_E2E_TZ, playwright.config.ts) may
// still differ from the resort's, which the islands must not mind.
import { test as base } from "@playwright/test";

export { expect } from "@playwright/test";

// Every test is a customer of its own address: the server takes the
// address from X-Forwarded-For, trusting loopback as a proxy (global-setup),
// so the sign-in limit per address (30 code requests an hour) counts each
// test apart, as it counts customers, not the whole suite on 127.0.0.1.
let customers = 0;
function addressOf(worker: number): string {
  const n = ++customers;
  return `10.${100 + (worker % 100)}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

export const test = base.extend<{ fakeClock: void }>({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, info) => {
    await use({ ...extraHTTPHeaders, "X-Forwarded-For": addressOf(info.workerIndex) });
  },
  fakeClock: [
    async ({ context }, use) => {
      const now = process.env.LK_TEST_NOW;
      if (now) await context.clock.setFixedTime(new Date(now));
      await use();
    },
    { auto: true },
  ],
});
