// A slow mobile link between the browser and the server: a reverse proxy on
// loopback that holds every request for the round trip and lets the answers
// through at the link's rate, all of them sharing it. It stands in for the
// browser's own network emulation, which a page rendered ahead of a tap
// does not get, so that every request a phone makes, speculative or not,
// crosses the same link.
import { createServer, request as forward, Agent, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

export type Link = {
  /** The round trip, ms: a new connection waits one more (its handshake). */
  rttMs: number;
  /** Bits a second, down and up. */
  bitsPerSecond: number;
  /** Headers added to every request (a customer's address, Save-Data). */
  headers?: Record<string, string>;
};

export type SlowLink = { url: string; requests: { path: string; purpose: string }[]; close(): Promise<void> };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** One direction of the link: what is sent queues behind what was sent before. */
class Pipe {
  private free = 0;
  constructor(private bytesPerMs: number) {}
  /** When the last of n bytes handed over now has crossed, ms since the epoch. */
  take(n: number): number {
    this.free = Math.max(this.free, Date.now()) + n / this.bytesPerMs;
    return this.free;
  }
}

/** Starts the link in front of target (http://host:port). */
export async function slowLink(target: string, link: Link): Promise<SlowLink> {
  const up = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const down = new Pipe(link.bitsPerSecond / 8 / 1000);
  const upstream = new Pipe(link.bitsPerSecond / 8 / 1000);
  const half = link.rttMs / 2;
  const fresh = new WeakSet<Socket>();
  const requests: SlowLink["requests"] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const handshake = fresh.has(socket) ? link.rttMs : 0;
    fresh.delete(socket);
    requests.push({ path: req.url ?? "", purpose: String(req.headers["sec-purpose"] ?? "") });
    const body: Buffer[] = [];
    for await (const chunk of req) body.push(chunk as Buffer);
    const sent = Buffer.concat(body);
    // The request reaches the server half a round trip after it has left.
    await sleep(upstream.take(sent.length + 400) + half + handshake - Date.now());
    const headers = { ...req.headers, ...link.headers, host: up.host };
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const r = forward({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers, agent }, resolve);
      r.on("error", reject);
      r.end(sent);
    }).catch(() => undefined);
    if (!answer) {
      res.writeHead(502).end();
      return;
    }
    // The answer's first byte comes back half a round trip later, and the
    // rest at the link's rate, behind whatever else is coming down.
    let headerSent = false;
    let last = Date.now() + half;
    const send = async (chunk: Buffer) => {
      last = Math.max(last, down.take(chunk.length) + half);
      await sleep(last - Date.now());
      if (!headerSent) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        headerSent = true;
      }
      res.write(chunk);
    };
    down.take(300); // the status line and headers
    for await (const chunk of answer) await send(chunk as Buffer);
    if (!headerSent) {
      await sleep(last - Date.now());
      res.writeHead(answer.statusCode ?? 502, answer.headers);
    }
    res.end();
  };

  const server: Server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  server.on("connection", (s: Socket) => {
    fresh.add(s);
    s.on("error", () => undefined); // a browser closed mid-answer
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  if (addr === null || typeof addr === "string") throw new Error("slowlink: no port");
  return {
    url: `http://127.0.0.1:${addr.port}`,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
        agent.destroy();
      }),
  };
}
