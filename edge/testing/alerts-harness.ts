import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { ScheduleInput } from "@stockbridge/shared";

/** One request a webhook receiver got. */
export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP server on loopback standing in for a merchant's webhook endpoint: it records every
 * request and answers the statuses queued with `answer` (200 once the queue is empty).
 */
export async function startReceiver() {
  const received: ReceivedHook[] = [];
  const statuses: number[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(statuses.shift() ?? 200, { "Content-Type": "text/plain" });
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/stockbridge`,
    received,
    /** Answers these statuses to the next requests, in order. */
    answer(...next: number[]) {
      statuses.push(...next);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Checks a `Stockbridge-Signature: t=<unix>,v1=<hex>` header the way a receiver would, with
 * node:crypto rather than the edge's own code: HMAC-SHA256 of `${t}.${body}` with the secret.
 */
export function verifySignature(hook: ReceivedHook, secret: string): { timestamp: number } {
  const header = hook.headers["stockbridge-signature"];
  if (typeof header !== "string") throw new Error("no Stockbridge-Signature header");
  const parts = new Map(header.split(",").map((part) => part.split("=", 2) as [string, string]));
  const timestamp = Number(parts.get("t"));
  const signature = parts.get("v1") ?? "";
  const expected = createHmac("sha256", secret).update(`${timestamp}.${hook.body}`).digest("hex");
  if (
    signature.length !== expected.length ||
    !timingSafeEqual(Buffer.from(signature, "hex"), Buffer.from(expected, "hex"))
  ) {
    throw new Error(`signature ${signature} does not match ${expected}`);
  }
  return { timestamp };
}

/** Every 15 minutes, due at 10:15 on the test clock (which starts at 10:00 UTC). */
export function everyQuarter(name: string, overrides: Partial<ScheduleInput> = {}): ScheduleInput {
  return {
    name,
    schedule: { type: "minutely", minuteInterval: 15, time: null, day: null, interval: null },
    timezone: "UTC",
    mappingIds: [],
    isFullSync: true,
    syncOptions: { price: true, quantity: false },
    status: "active",
    ...overrides,
  };
}

export const ALERT_SETTINGS = {
  email: null,
  webhookUrl: null,
  onFailed: true,
  onPartial: false,
  onMissed: true,
  onHeld: false,
};
