import { AppError, ConflictError } from "../http/errors.ts";

/** No Stripe key (or no webhook secret for the webhook): billing cannot work, and says so. */
export class BillingNotConfiguredError extends AppError {
  constructor(message = "Billing is not configured") {
    super(503, "BILLING_NOT_CONFIGURED", message);
  }
}

/** The card was declined or needs action: the user's to fix, not an outage. */
export class PaymentFailedError extends AppError {
  constructor(message: string) {
    super(402, "PAYMENT_FAILED", message);
  }
}

/**
 * Another billing change of the same user is running (our claim is taken, or Stripe reports the
 * request's idempotency key in flight or used for other parameters): the user tries again after it.
 */
export class BillingInProgressError extends ConflictError {
  constructor() {
    super("Another change to your subscription is in progress. Wait for it to finish, then try again.");
  }
}

/** A webhook whose Stripe-Signature does not verify (wrong secret, tampered body, too old). */
export class WebhookSignatureError extends AppError {
  constructor(message: string) {
    super(400, "INVALID_SIGNATURE", message);
  }
}
