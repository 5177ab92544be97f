import { describeError } from "../errors.ts";
import { record } from "../lib/json.ts";
import type { FetchLike } from "../security/outbound-guard.ts";
import type { SecretBox } from "../security/secret-box.ts";
import type { AttemptOutcome, ClaimedDelivery, DeliveryRepo } from "./delivery-repo.ts";
import { MailError, type Mailer } from "./mailer.ts";
import type { AlertsRepo } from "./repo.ts";
import { webhookSecretContext } from "./secret.ts";
import { sendWebhook } from "./webhook.ts";

export interface AlertDispatcherDeps {
  repo: DeliveryRepo;
  secrets: { repo: Pick<AlertsRepo, "webhookSecret">; box: SecretBox };
  /** The app's guarded outbound fetch (the one connections use). */
  fetch: FetchLike;
  /** Null when SMTP_URL is not set: an email delivery then fails with that reason. */
  mailer: Mailer | null;
  now: () => Date;
  log: (line: string) => void;
}

/** Deliveries are tried for this long after the alert, then given up as failed. */
const DELIVERY_WINDOW_MS = 24 * 60 * 60_000;
const FIRST_RETRY_MS = 60_000;
const LONGEST_WAIT_MS = 6 * 60 * 60_000;
/** How long a claimed delivery stays another tick's to leave alone (a send times out well before). */
const LEASE_MS = 5 * 60_000;
const BATCH = 10;
const MOST_BATCHES_PER_TICK = 20;

/** The wait after the n-th failed attempt: 1 minute, doubling, at most 6 hours. */
function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_WAIT_MS);
}

/**
 * Sends due email and webhook deliveries (called by the cron tick on every instance): claims a
 * batch with a lease, sends each, and records delivered, a later retry, or failed after 24 hours.
 */
export function createAlertDispatcher(deps: AlertDispatcherDeps) {
  async function attempt(
    delivery: ClaimedDelivery,
  ): Promise<{ statusCode: number | null; error: string | null }> {
    if (delivery.channel === "email") {
      if (!deps.mailer)
        return { statusCode: null, error: "Email is not configured on this server (SMTP_URL)" };
      const message = emailOf(delivery.payload);
      try {
        const sent = await deps.mailer.send({
          to: delivery.target,
          subject: message.subject,
          text: message.text,
        });
        return { statusCode: sent.responseCode, error: null };
      } catch (error) {
        if (!(error instanceof MailError)) throw error;
        return { statusCode: error.responseCode, error: error.message };
      }
    }
    const stored = await deps.secrets.repo.webhookSecret(delivery.userId);
    if (!stored) {
      return {
        statusCode: null,
        error: "No webhook signing secret: create one in Settings > Notifications",
      };
    }
    const secret = await deps.secrets.box.open(stored.sealed, webhookSecretContext(delivery.userId));
    const sent = await sendWebhook(deps.fetch, {
      id: delivery.id,
      url: delivery.target,
      body: JSON.stringify(delivery.payload),
      secret,
      now: deps.now(),
    });
    return { statusCode: sent.statusCode, error: sent.delivered ? null : sent.error };
  }

  async function deliver(delivery: ClaimedDelivery): Promise<AttemptOutcome["status"]> {
    let result: { statusCode: number | null; error: string | null };
    try {
      result = await attempt(delivery);
    } catch (error) {
      // A bug or a secret that no longer opens: recorded on the delivery, retried like any failure.
      deps.log(`alert delivery ${delivery.id} failed: ${describeError(error)}`);
      result = { statusCode: null, error: error instanceof Error ? error.message : String(error) };
    }
    const now = deps.now();
    const giveUpAt = new Date(delivery.createdAt).getTime() + DELIVERY_WINDOW_MS;
    let outcome: AttemptOutcome;
    if (result.error === null) {
      outcome = { status: "delivered", statusCode: result.statusCode };
    } else if (now.getTime() >= giveUpAt) {
      outcome = { status: "failed", statusCode: result.statusCode, error: result.error };
    } else {
      const next = Math.min(now.getTime() + retryDelayMs(delivery.attempts + 1), giveUpAt);
      outcome = {
        status: "pending",
        statusCode: result.statusCode,
        error: result.error,
        nextAttemptAt: new Date(next).toISOString(),
      };
    }
    await deps.repo.settle(delivery.id, { outcome, now: now.toISOString() });
    return outcome.status;
  }

  return {
    /** Sends every due delivery; answers how many were delivered, left for a retry, or given up. */
    async deliverDue(): Promise<{ delivered: number; retrying: number; failed: number }> {
      const tally = { delivered: 0, retrying: 0, failed: 0 };
      for (let round = 0; round < MOST_BATCHES_PER_TICK; round += 1) {
        const now = deps.now();
        const claimed = await deps.repo.claimDue({
          now: now.toISOString(),
          leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString(),
          limit: BATCH,
        });
        const outcomes = await Promise.all(claimed.map(deliver));
        for (const status of outcomes) {
          if (status === "delivered") tally.delivered += 1;
          else if (status === "failed") tally.failed += 1;
          else tally.retrying += 1;
        }
        if (claimed.length < BATCH) break;
      }
      return tally;
    },
  };
}

/** An email delivery's payload as the recorder wrote it (compose.ts alertEmail); a bad row sends nothing. */
function emailOf(payload: unknown): { subject: string; text: string } {
  const email = record(payload);
  if (typeof email?.subject === "string" && typeof email.text === "string") {
    return { subject: email.subject, text: email.text };
  }
  throw new Error("The stored email of this delivery is not readable");
}
