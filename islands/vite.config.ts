/// <reference types="vitest/config" />
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const root = fileURLToPath(new URL(".", import.meta.url));

// The Go server reads static/dist/.vite/manifest.json to find each entry's
// hashed file, its CSS and the chunks to preload. Entry keys in the manifest
// are these paths relative to islands/ (e.g. "main.ts").
export default defineConfig({
  root,
  base: "/static/dist/",
  plugins: [react()],
  build: {
    outDir: "../static/dist",
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: "es2022",
    // The server writes <link rel="modulepreload"> itself; browsers without
    // it simply skip the hint, so the polyfill is dead weight on the entry.
    modulePreload: { polyfill: false },
    // Vite 8 renamed rollupOptions to rolldownOptions (the old name is a
    // deprecated alias).
    rolldownOptions: {
      input: {
        main: "main.ts",
        "sms-code": "sms-code/SmsCode.tsx",
        "slot-picker": "slot-picker/SlotPicker.tsx",
        calendar: "calendar/TransferCalendar.tsx",
        phone: "enhance/phone.ts",
        birthday: "enhance/birthday.ts",
        files: "enhance/files.ts",
        // Its own module script on /orders, beside the mount loop.
        more: "enhance/more.ts",
        // Fetches the files of the page an order leads to while it is read
        // (views/speculation.go); its own small entry, outside the mount loop.
        next: "next/main.ts",
        // The offline worker: served at /sw.js, so it must be one file
        // with no import (a classic worker script); it shares no module
        // with the pages.
        sw: "sw/worker.ts",
      },
      output: {
        entryFileNames: "assets/[name]-[hash].js",
        chunkFileNames: "assets/[name]-[hash].js",
        assetFileNames: "assets/[name]-[hash][extname]",
        codeSplitting: {
          // One cacheable vendor chunk for React, shared by every island,
          // and one for flatpickr, which changes apart from the calendar.
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: "flatpickr", test: /node_modules[\\/]flatpickr[\\/].*\.js$/ },
          ],
        },
      },
    },
  },
  test: {
    environment: "happy-dom",
    include: ["**/*.test.{ts,tsx}"],
    exclude: ["node_modules/**", "e2e/**"],
    setupFiles: ["test/setup.ts"],
    // A bound on a hung test, not a speed check: the suite runs beside the Go
    // tests under the race detector, where a calendar test that takes 1–2 s
    // alone has taken over 5 s (Vitest's default).
    testTimeout: 20_000,
  },
});
