import { TOKEN_STORAGE_KEY } from "@stockbridge/shared";

/** The slice of `Storage` the token needs; tests pass a Map-backed one. */
export type TokenStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  clear(): void;
}

/** The bearer token lives in local storage under the product's fixed key (spec section 3). */
export function createTokenStore(storage: TokenStorage): TokenStore {
  return {
    get() {
      try {
        return storage.getItem(TOKEN_STORAGE_KEY) || null;
      } catch {
        return null; // storage disabled (private mode, policy): behave as signed out
      }
    },
    set(token) {
      storage.setItem(TOKEN_STORAGE_KEY, token);
    },
    clear() {
      try {
        storage.removeItem(TOKEN_STORAGE_KEY);
      } catch {
        // nothing stored that could be removed
      }
    },
  };
}

/** A storage that keeps values in memory, for tests and for browsers without local storage. */
export function createMemoryStorage(): TokenStorage {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => {
      values.set(key, value);
    },
    removeItem: (key) => {
      values.delete(key);
    },
  };
}

/**
 * Whether a bearer token (a JWT) is still inside its lifetime, `marginMs` ahead: its `exp` claim
 * read without verifying (only the server can). An unreadable token counts as expired.
 */
export function tokenUnexpired(token: string, now: number, marginMs = 60_000): boolean {
  try {
    const payload: unknown = JSON.parse(
      atob((token.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/")),
    );
    const exp = typeof payload === "object" && payload !== null && "exp" in payload ? payload.exp : null;
    return typeof exp === "number" && exp * 1000 > now + marginMs;
  } catch {
    return false;
  }
}
