import type { Handlers } from "../http/contract-routes.ts";
import type { PersonalTokenService } from "./service.ts";

/** Thin adapters from the contract to the token service; the caller is always the owner. */
export function tokenHandlers(tokens: PersonalTokenService): Handlers {
  return {
    createToken: ({ caller, input }) => tokens.create(caller.userId, input.body),
    listTokens: ({ caller }) => tokens.list(caller.userId),
    revokeToken: async ({ caller, input }) => {
      await tokens.revoke(caller.userId, input.params.id);
      return { ok: true as const };
    },
  };
}
