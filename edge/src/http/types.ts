import type { Context } from "hono";

/** Who is calling: set by the contract router once the Bearer token is verified. */
export interface Caller {
  userId: string;
  sessionId: string;
}

export type AppEnv = { Variables: { requestId: string; caller: Caller | null } };
export type AppContext = Context<AppEnv>;
