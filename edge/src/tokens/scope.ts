import { contract, type Endpoint, type EndpointName } from "@stockbridge/shared";
import { ForbiddenError } from "../errors.ts";
import type { Caller } from "../http/types.ts";

/**
 * Throws the endpoint's 403 when a personal API token calls what needs a signed-in session: the
 * contract marks those (`sessionOnly`), so the API document lists the same refusals.
 */
export function checkTokenScope(caller: Caller, endpoint: EndpointName): void {
  if (caller.personalTokenId === null) return;
  const { sessionOnly: refusal }: Endpoint = contract[endpoint];
  if (refusal) throw new ForbiddenError(refusal, "PERSONAL_TOKEN_FORBIDDEN");
}
