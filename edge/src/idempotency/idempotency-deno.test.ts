import { join } from "node:path";
import { createApiClient, MESSAGES } from "@stockbridge/shared";
import { describe, expect, it, onTestFinished } from "vitest";
import { startEdgeProcess } from "../../testing/deno-harness.ts";
import { grantSubscription } from "../../testing/helpers.ts";
import { openDatabase } from "../db/client.ts";

const RACERS = 12;

/** The edge as users run it (`deno run edge/main.ts` on a libSQL file), billing pointed nowhere. */
async function startEdge() {
  const edge = await startEdgeProcess({
    env: { STRIPE_SECRET_KEY: "sk_test_idempotency", STRIPE_API_URL: "http://127.0.0.1:9" },
  });
  onTestFinished(() => edge.stop());
  return edge;
}

async function subscriber(edge: { origin: string; dataDir: string }) {
  const anonymous = createApiClient({ baseUrl: `${edge.origin}/api`, getToken: () => null });
  const { token, user } = await anonymous.call("register", {
    body: { name: "Racing Client", email: `racer-${crypto.randomUUID()}@example.com`, password: "Passw0rd" },
  });
  const db = openDatabase(`file:${join(edge.dataDir, "stockbridge.db")}`);
  await db.execute("PRAGMA busy_timeout = 5000");
  await grantSubscription(db, user._id);
  db.close();
  return { token, api: createApiClient({ baseUrl: `${edge.origin}/api`, getToken: () => token }) };
}

describe("Idempotency-Key under Deno", () => {
  it("creates one schedule when the same keyed create arrives many times at once", async () => {
    const edge = await startEdge();
    const { token, api } = await subscriber(edge);
    const body = JSON.stringify({
      name: "Nightly",
      schedule: { type: "daily", time: "02:00" },
      isFullSync: true,
      syncOptions: { price: true, quantity: false },
    });
    const send = () =>
      fetch(`${edge.origin}/api/mapping-schedule`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          "Idempotency-Key": "one-create",
        },
        body,
      });

    const answers = await Promise.all(
      Array.from({ length: RACERS }, async () => {
        const response = await send();
        return {
          status: response.status,
          replayed: response.headers.get("Idempotent-Replayed"),
          retryAfter: response.headers.get("Retry-After"),
          body: await response.json(),
        };
      }),
    );

    const { schedules } = await api.call("listSchedules");
    expect(schedules.map((schedule) => schedule.name)).toEqual(["Nightly"]);
    const ran = answers.filter((answer) => answer.status === 200 && answer.replayed === null);
    expect(ran).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 200) {
        expect(answer.body.data._id).toBe(schedules[0]?._id);
      } else {
        expect(answer).toMatchObject({
          status: 409,
          retryAfter: "1",
          body: { message: MESSAGES.idempotency.inProgress, code: "IDEMPOTENCY_IN_PROGRESS" },
        });
      }
    }
    // Once it has answered, every repeat gets its answer.
    const later = await send();
    expect(later.status).toBe(200);
    expect(later.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await later.json()).data._id).toBe(schedules[0]?._id);
  });
});
