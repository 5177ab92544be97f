import { grantsAccess, MESSAGES, type User } from "@stockbridge/shared";

/** Who may open a route (spec section 6). */
export type RouteAccess = "anonymous" | "user" | "subscriber";

export interface GuardSession {
  isAuthenticated: boolean;
  user: Pick<User, "subscription"> | null;
}

export interface GuardNotice {
  tone: "warning" | "error";
  message: string;
}

export type GuardDecision =
  | { kind: "allow" }
  | {
      kind: "redirect";
      to: "/login" | "/dashboard" | "/subscription";
      /** Where to come back to after signing in (only with `to: "/login"`). */
      redirectBack?: string;
      notice?: GuardNotice;
    };

const ALLOW: GuardDecision = { kind: "allow" };

/**
 * The route guards as one pure decision: anonymous routes send a signed-in user to the dashboard,
 * authenticated routes send a visitor to /login remembering where they were going, and gated
 * routes need an active or trialing subscription.
 */
export function decideAccess(session: GuardSession, access: RouteAccess, href: string): GuardDecision {
  const signedIn = session.isAuthenticated && session.user !== null;
  if (access === "anonymous") return signedIn ? { kind: "redirect", to: "/dashboard" } : ALLOW;
  if (!signedIn) {
    const redirectBack = safeRedirect(href);
    return {
      kind: "redirect",
      to: "/login",
      ...(redirectBack ? { redirectBack } : {}),
      ...(access === "subscriber"
        ? { notice: { tone: "error", message: MESSAGES.access.loginRequired } }
        : {}),
    };
  }
  if (access === "subscriber" && !hasSubscriptionAccess(session.user)) {
    return {
      kind: "redirect",
      to: "/subscription",
      notice: { tone: "warning", message: MESSAGES.access.subscriptionRequired },
    };
  }
  return ALLOW;
}

export function hasSubscriptionAccess(user: Pick<User, "subscription"> | null | undefined): boolean {
  return grantsAccess(user?.subscription?.status);
}

/** The strictest access any matched route declares in its `staticData`. */
export function requiredAccess(declared: ReadonlyArray<RouteAccess | undefined>): RouteAccess {
  if (declared.includes("subscriber")) return "subscriber";
  if (declared.includes("user")) return "user";
  return declared.includes("anonymous") ? "anonymous" : "user";
}

/**
 * A remembered origin is followed only when it is a path on this site (never `//evil.example` or a
 * full URL), and never back to the sign-in pages themselves.
 */
export function safeRedirect(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 2_000) return undefined;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return undefined;
  if (hasControlCharacter(value)) return undefined;
  const path = value.split(/[?#]/, 1)[0] ?? "";
  if (
    path === "/login" ||
    path === "/register" ||
    path.startsWith("/login/") ||
    path.startsWith("/register/")
  ) {
    return undefined;
  }
  return value;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) < 0x20) return true;
  return false;
}
