import { type EndpointName, MESSAGES, personalTokenCannot } from "@stockbridge/shared";
import { ForbiddenError } from "../http/errors.ts";
import type { Caller } from "../http/types.ts";

/**
 * What a personal API token may not do, by endpoint, with the action its 403 names: manage tokens
 * (a leaked token must not mint its own successors or hide itself), change the password, sign out
 * (it has no session: revoking is how it ends) or touch billing. Everything else its owner may call.
 */
export const SESSION_ONLY: Partial<Record<EndpointName, string>> = {
  createToken: personalTokenCannot("create API tokens"),
  listTokens: personalTokenCannot("list API tokens"),
  revokeToken: personalTokenCannot("revoke API tokens"),
  changePassword: personalTokenCannot("change the password"),
  logout: MESSAGES.tokens.noSignOut,
  plans: personalTokenCannot("view billing plans"),
  subscriptionStatus: personalTokenCannot("view or verify the subscription"),
  createSubscription: personalTokenCannot("start a subscription"),
  cancelSubscription: personalTokenCannot("cancel the subscription"),
  updateSubscription: personalTokenCannot("change the subscription plan"),
  createCheckoutSession: personalTokenCannot("open a checkout"),
  resumeSubscription: personalTokenCannot("resume the subscription"),
};

/** Throws a 403 naming the action when a personal API token calls an endpoint it may not use. */
export function checkTokenScope(caller: Caller, endpoint: EndpointName): void {
  if (caller.personalTokenId === null) return;
  const refusal = SESSION_ONLY[endpoint];
  if (refusal) throw new ForbiddenError(refusal, "PERSONAL_TOKEN_FORBIDDEN");
}
