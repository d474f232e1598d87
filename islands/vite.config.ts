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
  // The islands are written against React's API and run on Preact's
  // implementation of it (preact/compat): about 8 KB against React's 71 KB,
  // which on a phone's slow network is most of what a page with an island
  // waits for. Vitest runs the same aliases, so the tests test what ships.
  resolve: {
    alias: [
      { find: /^react-dom\/test-utils$/, replacement: "preact/test-utils" },
      { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
      { find: /^react-dom$/, replacement: "preact/compat" },
      { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
      { find: /^react\/jsx-dev-runtime$/, replacement: "preact/jsx-dev-runtime" },
      { find: /^react$/, replacement: "preact/compat" },
    ],
  },
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
          // One cacheable vendor chunk for the islands' runtime, shared by every island.
          groups: [{ name: "react", test: /node_modules[\\/](preact|react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
  test: {
    environment: "happy-dom",
    include: ["**/*.test.{ts,tsx}"],
    exclude: ["node_modules/**", "e2e/**"],
    setupFiles: ["test/setup.ts"],
    // Testing Library's ES module is bundled by Vite, so that the aliases
    // reach its own imports of react and react-dom too.
    alias: [
      {
        find: /^@testing-library\/react$/,
        replacement: fileURLToPath(new URL("node_modules/@testing-library/react/dist/@testing-library/react.esm.js", import.meta.url)),
      },
    ],
    server: { deps: { inline: [/@testing-library\/react/] } },
    // A bound on a hung test, not a speed check: the suite runs beside the Go
    // tests under the race detector, where a calendar test that takes 1–2 s
    // alone has taken over 5 s (Vitest's default).
    testTimeout: 20_000,
  },
});
