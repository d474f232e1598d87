// The phone timings (bench/phone.bench.ts): the browser tests' setup and
// server, another folder and file name, so `npx playwright test` runs none
// of them.
import { defineConfig } from "@playwright/test";
import base from "../playwright.config";

export default defineConfig({ ...base, testDir: ".", testMatch: "*.bench.ts", globalSetup: "../e2e/global-setup.ts" });
