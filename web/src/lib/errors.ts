import { ApiError } from "@stockbridge/shared";

/** The text to show for a failed call: the server's message (or the endpoint's catalogue default). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.message || fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

export function isNetworkError(error: unknown): boolean {
  return error instanceof ApiError && error.isNetworkError;
}

/**
 * Whether a failed query deserves a toast: not for a 401 (the session is ending and the browser is
 * going to /login anyway) nor for an unreachable server while offline (the offline banner says so).
 */
export function shouldToastQueryError(error: unknown, options: { online: boolean }): boolean {
  if (isUnauthorized(error)) return false;
  if (isNetworkError(error) && !options.online) return false;
  return true;
}

/** Retry only what may pass on a second try: network failures and 5xx, at most twice. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  if (!(error instanceof ApiError)) return false;
  return error.isNetworkError || error.status >= 500;
}
