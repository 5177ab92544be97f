import type { Context } from "hono";

/** Who is calling: set by the contract router once the Bearer token is verified. */
export interface Caller {
  userId: string;
  /** The session a JWT belongs to; null for a personal API token. */
  sessionId: string | null;
  /** The personal API token (`sbk_...`) the call came with; null for a session. */
  personalTokenId: string | null;
  /**
   * The user's subscription status and period end, read with the session in one query so the
   * subscription gate needs no second one; null when the user has none.
   */
  subscription?: { status: string; currentPeriodEnd: string | null } | null;
}

export type AppEnv = { Variables: { requestId: string; caller: Caller | null } };
export type AppContext = Context<AppEnv>;
