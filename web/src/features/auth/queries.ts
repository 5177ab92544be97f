import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";

export const sessionKeys = {
  all: ["session"] as const,
  me: () => [...sessionKeys.all, "me"] as const,
};

/** GET /auth/me: the signed-in user as the server has it now (subscription, connections). */
export function meQuery(api: ApiClient) {
  return queryOptions({
    queryKey: sessionKeys.me(),
    queryFn: () => api.call("me"),
    meta: { persist: false },
  });
}
