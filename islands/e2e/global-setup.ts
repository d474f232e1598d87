// Starts the real server (with its bundled sandbox gateway) for the browser
// tests, and stops it afterwards: Playwright runs the function returned here
// as the global teardown.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// E2E_BIN: another build of the server, to compare (make phone); not LK_,
// which the server would refuse as a variable it does not know.
const BIN = process.env.E2E_BIN || fileURLToPath(new URL("../../bin/lk", import.meta.url));
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** Asks the OS for n distinct free ports on loopback. */
async function freePorts(n: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = createServer();
      servers.push(s);
      await new Promise<void>((resolve, reject) => {
        s.once("error", reject);
        s.listen(0, "127.0.0.1", resolve);
      });
    }
    return servers.map((s) => {
      const addr = s.address();
      if (addr === null || typeof addr === "string") throw new Error("e2e: no port");
      return addr.port;
    });
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`e2e: ${BIN} exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${output()}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`e2e: ${url}/healthz not healthy after ${START_TIMEOUT_MS} ms:\n${output()}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM"); // graceful shutdown
  });
}

export default async function globalSetup(): Promise<(() => Promise<void>) | void> {
  if (process.env.LK_E2E_URL) return; // a server is already running

  if (!existsSync(BIN)) throw new Error(`e2e: ${BIN} not found; build it with: go build -o bin/lk ./cmd/lk`);
  const [port, sandboxPort] = await freePorts(2);
  const dataDir = await mkdtemp(join(tmpdir(), "lk-e2e-"));
  const url = `http://127.0.0.1:${port}`;
  const sandbox = `http://127.0.0.1:${sandboxPort}`;

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LK_ADDR: `127.0.0.1:${port}`,
    LK_SANDBOX_ADDR: `127.0.0.1:${sandboxPort}`,
    LK_DATA_DIR: dataDir,
    // A short wait between codes, so a test can resend without waiting a
    // minute; the 60-second default is covered by the Go and Vitest tests.
    LK_CODE_INTERVAL: "2s",
    // Each test sends an address of its own (fixtures.ts).
    LK_TRUSTED_PROXIES: "127.0.0.1/32,::1/128",
  };
  // The tests read SMS codes from the sandbox, so never aim at a real gateway.
  delete env.LK_GATEWAY_URL;
  // An instant such as 2026-11-23T23:59:00+03:00: the server's clock stands
  // there, and so does the browser's (e2e/fixtures.ts).
  delete env.LK_FAKE_NOW;
  if (process.env.LK_TEST_NOW) env.LK_FAKE_NOW = process.env.LK_TEST_NOW;

  const child = spawn(BIN, [], { env, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-16_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);

  try {
    await waitHealthy(url, child, () => log);
  } catch (err) {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }

  process.env.LK_E2E_URL = url;
  process.env.LK_E2E_SANDBOX = sandbox;

  return async () => {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
  };
}
