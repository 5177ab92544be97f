import { SANDBOX_DEMO } from "@stockbridge/shared/sandbox-demo";
import type { SandboxClock } from "../clock.ts";
import { apiLoginLimit, invalidCredentials, undefinedCompany } from "./errors.ts";
import { formatCookieDate, randomHex, randomSessionId } from "./json.ts";

export interface Session {
  sessionId: string;
  authToken: string;
  tenant: string;
  username: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface Credentials {
  name?: unknown;
  password?: unknown;
  tenant?: unknown;
  company?: unknown;
  branch?: unknown;
  locale?: unknown;
}

export interface SessionCounters {
  logins: number;
  loginFailures: number;
  loginLimitHits: number;
  logouts: number;
  expired: number;
  /** The most sessions that were open at once (seats in use) since the last reset. */
  openPeak: number;
}

/** The instance is multi-tenant, so an unknown tenant fails; a missing one means the first. */
const TENANTS = [SANDBOX_DEMO.acumatica.company];
const USERS = [{ name: SANDBOX_DEMO.acumatica.username, password: SANDBOX_DEMO.acumatica.password }];
const EXPIRED = "expires=Tue, 12-Oct-1999 00:00:00 GMT";

/**
 * Cookie sessions and licence seats (acumatica.md §1): each login holds a seat until logout or
 * until it has been idle for `idleTimeoutSeconds` on the sandbox clock; activity slides the expiry.
 */
export function createSessions(
  clock: SandboxClock,
  limits: () => { seats: number; idleTimeoutSeconds: number },
) {
  const sessions = new Map<string, Session>();
  const counters: SessionCounters = {
    logins: 0,
    loginFailures: 0,
    loginLimitHits: 0,
    logouts: 0,
    expired: 0,
    openPeak: 0,
  };

  function prune(now: number) {
    const idleMs = limits().idleTimeoutSeconds * 1000;
    for (const [id, session] of sessions) {
      if (session.lastSeenAt + idleMs <= now) {
        sessions.delete(id);
        counters.expired += 1;
      }
    }
  }

  function find(cookies: Map<string, string>): Session | undefined {
    const now = clock.now().getTime();
    prune(now);
    const session = sessions.get(cookies.get("ASP.NET_SessionId") ?? "");
    if (!session || session.authToken !== cookies.get(".ASPXAUTH")) return undefined;
    return session;
  }

  /** The session behind the request's cookies, touched; undefined means 401. */
  function authenticate(cookies: Map<string, string>): Session | undefined {
    const session = find(cookies);
    if (session) session.lastSeenAt = clock.now().getTime();
    return session;
  }

  /** Returns the Set-Cookie values of a successful login; throws the Acumatica failure otherwise. */
  function login(credentials: Credentials, cookies: Map<string, string>, secure: boolean): string[] {
    const now = clock.now().getTime();
    const requested = firstText(credentials.tenant, credentials.company);
    const tenant =
      requested === "" ? TENANTS[0]! : TENANTS.find((t) => t.toLowerCase() === requested.toLowerCase());
    if (!tenant) {
      counters.loginFailures += 1;
      throw undefinedCompany();
    }
    const name = typeof credentials.name === "string" ? credentials.name : "";
    const user = USERS.find(
      (u) => u.name.toLowerCase() === name.toLowerCase() && u.password === credentials.password,
    );
    if (!user) {
      counters.loginFailures += 1;
      throw invalidCredentials();
    }
    // Signing in again over a live session reuses its seat instead of taking another.
    const current = find(cookies);
    if (current) sessions.delete(current.sessionId);
    else if (sessions.size >= limits().seats) {
      counters.loginLimitHits += 1;
      throw apiLoginLimit(limits().seats);
    }
    const session: Session = {
      sessionId: current?.sessionId ?? randomSessionId(),
      authToken: randomHex(96).toUpperCase(),
      tenant,
      username: user.name,
      createdAt: now,
      lastSeenAt: now,
    };
    sessions.set(session.sessionId, session);
    counters.logins += 1;
    counters.openPeak = Math.max(counters.openPeak, sessions.size);
    return loginCookies(session, now, secure);
  }

  /** Frees the seat (if any) and returns the cookies that expire the credential. */
  function logout(cookies: Map<string, string>): string[] {
    const session = find(cookies);
    if (session) {
      sessions.delete(session.sessionId);
      counters.logouts += 1;
    }
    return [
      `.ASPXAUTH=; ${EXPIRED}; path=/; HttpOnly`,
      `ASP.NET_SessionId=; ${EXPIRED}; path=/; HttpOnly`,
      `requestid=${randomHex(16).toUpperCase()}; path=/`,
    ];
  }

  return {
    authenticate,
    login,
    logout,
    counters,
    open(): number {
      prune(clock.now().getTime());
      return sessions.size;
    },
    clear() {
      sessions.clear();
      Object.assign(counters, {
        logins: 0,
        loginFailures: 0,
        loginLimitHits: 0,
        logouts: 0,
        expired: 0,
        openPeak: 0,
      });
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;

function firstText(...values: unknown[]): string {
  for (const value of values) if (typeof value === "string" && value.trim() !== "") return value.trim();
  return "";
}

/**
 * The cookies of a recorded 2023 SaaS login, each sent twice as in that recording. `secure` and
 * SameSite=None only over HTTPS, so plain-HTTP cookie jars still send `.ASPXAUTH` back.
 */
function loginCookies(session: Session, now: number, secure: boolean): string[] {
  const inThreeDays = formatCookieDate(now + 3 * 86_400_000);
  const ticks = BigInt(now) * 10_000n + 621_355_968_000_000_000n;
  const cookies = [
    `.ASPXAUTH=${session.authToken}; path=/; ${secure ? "secure; " : ""}HttpOnly${secure ? "; SameSite=None" : ""}`,
    `ASP.NET_SessionId=${session.sessionId}; path=/; HttpOnly; SameSite=Lax`,
    `CompanyID=${session.tenant}; expires=${inThreeDays}; path=/`,
    `Locale=Culture=en-US&TimeZone=GMTM0800A; expires=${inThreeDays}; path=/`,
    "UserBranch=1; path=/",
    `requestid=${randomHex(16).toUpperCase()}; path=/`,
    `requeststat=+st:84+sc:~/entity/auth/login+start:${ticks}+tg:; path=/`,
  ];
  return cookies.flatMap((cookie) => [cookie, cookie]);
}

/** Parses a Cookie header; values may contain '=' (Locale=Culture=en-US&...). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(index + 1).trim());
  }
  return cookies;
}
