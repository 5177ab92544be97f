import type { QueryClient } from "@tanstack/react-query";
import type { AuthStore } from "./features/auth/auth-store.ts";
import type { ApiClient } from "./lib/api.ts";

/** What every route's beforeLoad and loader receive. */
export interface RouterContext {
  auth: AuthStore;
  queryClient: QueryClient;
  api: ApiClient;
}
