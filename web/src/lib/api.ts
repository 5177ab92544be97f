import { type ApiClient, createApiClient } from "@stockbridge/shared";
import type { TokenStore } from "./token-store.ts";

export type { ApiClient };

export interface ApiOptions {
  tokens: TokenStore;
  /** Any 401 to a call that carried a token: the session is over (token, caches, go to /login). */
  onUnauthorized(): void;
  baseUrl?: string;
  fetch?: typeof fetch;
}

/** The app's one API client: same-origin `/api`, bearer token from local storage. */
export function createApi(options: ApiOptions): ApiClient {
  return createApiClient({
    baseUrl: options.baseUrl ?? "/api",
    getToken: () => options.tokens.get(),
    onUnauthorized: options.onUnauthorized,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
