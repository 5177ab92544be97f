import type { Handlers } from "../http/contract-routes.ts";
import type { AuthService } from "./service.ts";

/** Thin adapters from the contract to the auth service. */
export function authHandlers(
  auth: AuthService,
  clientAddress: (c: Parameters<NonNullable<Handlers["login"]>>[0]["c"]) => string,
): Handlers {
  return {
    register: ({ input, c }) => auth.register(input.body, clientAddress(c)),
    login: ({ input, c }) => auth.login(input.body, clientAddress(c)),
    refresh: ({ input }) => auth.refresh(input.body.token),
    logout: async ({ caller }) => {
      await auth.logout(caller);
      return { ok: true as const };
    },
    me: async ({ caller }) => ({ user: await auth.me(caller.userId) }),
    changePassword: async ({ caller, input }) => {
      await auth.changePassword(caller.userId, input.body.currentPassword, input.body.newPassword);
      return { ok: true as const };
    },
  };
}
