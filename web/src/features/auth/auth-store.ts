import { type LoginInput, MESSAGES, type RegisterInput, type User } from "@stockbridge/shared";
import type { UserCache } from "../../db/user-cache.ts";
import type { ApiClient } from "../../lib/api.ts";
import { errorMessage, isNetworkError } from "../../lib/errors.ts";
import type { TokenStore } from "../../lib/token-store.ts";

/** `restoring` while a stored token is being checked (the full-page loading screen shows). */
export type SessionStatus = "restoring" | "authenticated" | "anonymous";

/** The client auth state of spec section 3, plus the status that drives the loading screen. */
export interface AuthState {
  status: SessionStatus;
  isAuthenticated: boolean;
  user: User | null;
  token: string | null;
  /** A login or register call is in flight. */
  loading: boolean;
  error: string | null;
  /** Signed in from the saved user because the server could not be reached at start-up. */
  offline: boolean;
}

export type SessionEndReason = "logout" | "unauthorized" | "restore-failed";

/** The client-side caches that belong to one session. */
export interface SessionCaches {
  /** Loads the persisted query cache (runs beside the refresh call at start-up). */
  restore(): Promise<void>;
  /** Empties the in-memory and persisted query caches. */
  clear(): Promise<void>;
}

export interface AuthStoreOptions {
  api: ApiClient;
  tokens: TokenStore;
  users: UserCache;
  caches: SessionCaches;
}

export type AuthStore = ReturnType<typeof createAuthStore>;

/**
 * Owns the session: login, register, restore by refresh, logout and the end of a session on a 401.
 * Framework-free so the router guards, React (through `useAuth`) and tests share one instance.
 */
export function createAuthStore(options: AuthStoreOptions) {
  const { api, tokens, users, caches } = options;
  const listeners = new Set<() => void>();
  const endListeners = new Set<(reason: SessionEndReason) => void>();
  let state: AuthState = {
    status: tokens.get() ? "restoring" : "anonymous",
    isAuthenticated: false,
    user: null,
    token: tokens.get(),
    loading: false,
    error: null,
    offline: false,
  };
  let ending: Promise<void> | null = null;
  let loggingOut = false;

  function setState(patch: Partial<AuthState>): void {
    state = { ...state, ...patch };
    state.isAuthenticated = state.status === "authenticated";
    for (const listener of listeners) listener();
  }

  async function startSession(user: User, token: string): Promise<void> {
    tokens.set(token);
    setState({ status: "authenticated", user, token, error: null, offline: false });
    await users.save(user).catch(() => undefined); // the offline copy is a convenience only
  }

  async function authenticate(
    call: () => Promise<{ user: User; token: string }>,
    fallback: string,
  ): Promise<User> {
    setState({ loading: true, error: null });
    try {
      const result = await call();
      // A new session never shows another session's cached lists.
      await caches.clear();
      await startSession(result.user, result.token);
      return result.user;
    } catch (error) {
      setState({ error: errorMessage(error, fallback) });
      throw error;
    } finally {
      setState({ loading: false });
    }
  }

  async function endSession(reason: SessionEndReason): Promise<void> {
    if (ending) return ending;
    ending = (async () => {
      tokens.clear();
      setState({ status: "anonymous", user: null, token: null, offline: false });
      await Promise.allSettled([users.clear(), caches.clear()]);
      for (const listener of endListeners) listener(reason);
    })().finally(() => {
      ending = null;
    });
    return ending;
  }

  async function restore(): Promise<void> {
    const token = tokens.get();
    if (!token) {
      setState({ status: "anonymous", token: null });
      await Promise.allSettled([users.clear(), caches.clear()]);
      return;
    }
    setState({ status: "restoring" });
    const [, refreshed] = await Promise.allSettled([
      caches.restore(),
      api.call("refresh", { body: { token } }),
    ]);
    if (refreshed.status === "fulfilled") {
      await startSession(refreshed.value.user, refreshed.value.token);
      return;
    }
    const message = errorMessage(refreshed.reason, MESSAGES.auth.refreshFailed);
    if (isNetworkError(refreshed.reason)) {
      const saved = await users.load().catch(() => null);
      if (saved) {
        setState({ status: "authenticated", user: saved, token, offline: true });
        return;
      }
      // Keep the token: the next start with a connection can still restore the session.
      setState({ status: "anonymous", user: null, error: message });
      return;
    }
    setState({ error: message });
    await endSession("restore-failed");
  }

  async function logout(): Promise<void> {
    loggingOut = true;
    try {
      if (tokens.get()) await api.call("logout").catch(() => undefined);
      await endSession("logout");
    } finally {
      loggingOut = false;
    }
  }

  function handleUnauthorized(): void {
    // During start-up the restore reports its own failure (the router is not mounted yet), and a
    // logout whose call answers 401 ends the session as a logout. Once a session has ended, a 401
    // to a request sent before (the bell's poll) has nothing left to end: ending it again would
    // send /login?redirect=... on to a bare /login.
    if (state.status !== "authenticated" || loggingOut) return;
    void endSession("unauthorized");
  }

  function setUser(user: User): void {
    setState({ user });
    void users.save(user).catch(() => undefined);
  }

  async function refreshUser(): Promise<User> {
    const { user } = await api.call("me");
    if (state.status === "authenticated") setUser(user);
    return user;
  }

  return {
    getState: (): AuthState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Told after a session ended (token and caches already cleared); main.tsx navigates to /login. */
    onSessionEnded(listener: (reason: SessionEndReason) => void): () => void {
      endListeners.add(listener);
      return () => endListeners.delete(listener);
    },
    login: (input: LoginInput): Promise<User> =>
      authenticate(() => api.call("login", { body: input }), MESSAGES.auth.loginFailed),
    register: (input: RegisterInput): Promise<User> =>
      authenticate(() => api.call("register", { body: input }), MESSAGES.auth.registrationFailed),
    /**
     * Restores a session from a stored token by the refresh call. Offline with a saved user, the app
     * opens on that user and its persisted lists; any other failure ends the session.
     */
    restore,
    /** POST /auth/logout (best effort: the session ends locally either way). */
    logout,
    /** The API answered 401 to a call that carried our token. */
    handleUnauthorized,
    /** Replaces the user after a screen changed it (connection saved, subscription changed). */
    setUser,
    /** Reloads the user from GET /auth/me. */
    refreshUser,
  };
}
