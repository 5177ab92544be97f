import { ConflictError, DomainError } from "../errors.ts";

/** No Stripe key (or no webhook secret for the webhook): billing cannot work, and says so. */
export class BillingNotConfiguredError extends DomainError {
  constructor(message = "Billing is not configured") {
    super("BILLING_NOT_CONFIGURED", message);
  }
}

/** The card was declined or needs action: the user's to fix, not an outage. */
export class PaymentFailedError extends DomainError {
  constructor(message: string) {
    super("PAYMENT_FAILED", message);
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
export class WebhookSignatureError extends DomainError {
  constructor(message: string) {
    super("INVALID_SIGNATURE", message);
  }
}
