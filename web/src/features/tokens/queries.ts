import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api.ts";

/** Keys of the API token list; creating or revoking a token invalidates `tokenKeys.all`. */
export const tokenKeys = {
  all: ["tokens"] as const,
  list: () => [...tokenKeys.all, "list"] as const,
};

/** GET /tokens: the user's personal API tokens (never their secrets). */
export function tokensQuery(api: ApiClient) {
  return queryOptions({
    queryKey: tokenKeys.list(),
    queryFn: () => api.call("listTokens"),
  });
}
