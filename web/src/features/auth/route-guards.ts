import { redirect } from "@tanstack/react-router";
import { toast } from "sonner";
import type { AuthStore } from "./auth-store.ts";
import { decideAccess, type GuardDecision, type RouteAccess, requiredAccess } from "./guards.ts";

export interface GuardArgs {
  context: { auth: AuthStore };
  location: { href: string };
  /** Static data of every matched route: a gated route declares `access: "subscriber"`. */
  matches: ReadonlyArray<{ staticData?: { access?: RouteAccess } }>;
  /** True while the router preloads on hover: no toasts then. */
  preload: boolean;
}

/** Runs the guard decision for a layout route's `beforeLoad`: toast its notice, throw its redirect. */
export function guardRoute(args: GuardArgs, access?: RouteAccess): void {
  const needed = access ?? requiredAccess(args.matches.map((match) => match.staticData?.access));
  applyDecision(decideAccess(args.context.auth.getState(), needed, args.location.href), args.preload);
}

function applyDecision(decision: GuardDecision, preload: boolean): void {
  if (decision.kind === "allow") return;
  if (decision.notice && !preload) {
    // A fixed id keeps a second run of the same guard from stacking a second toast.
    const id = `guard:${decision.notice.message}`;
    if (decision.notice.tone === "warning") toast.warning(decision.notice.message, { id });
    else toast.error(decision.notice.message, { id });
  }
  if (decision.to === "/login") {
    throw redirect({
      to: "/login",
      search: decision.redirectBack ? { redirect: decision.redirectBack } : {},
    });
  }
  throw redirect({ to: decision.to });
}
