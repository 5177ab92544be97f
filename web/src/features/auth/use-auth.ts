import { useSyncExternalStore } from "react";
import { useServices } from "../../lib/services-context.tsx";
import type { AuthState, AuthStore } from "./auth-store.ts";

/** The current auth state; re-renders on every change. */
export function useAuth(): AuthState & { store: AuthStore } {
  const { auth } = useServices();
  const state = useSyncExternalStore(auth.subscribe, auth.getState, auth.getState);
  return { ...state, store: auth };
}
