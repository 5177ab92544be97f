import type { AuthResult, LoginInput, RegisterInput, User } from "@stockbridge/shared";
import { MESSAGES } from "@stockbridge/shared";
import type { Db } from "../db/client.ts";
import { ConflictError, RateLimitError, UnauthorizedError, ValidationError } from "../http/errors.ts";
import type { Caller } from "../http/types.ts";
import { loadUserView } from "../users/user-view.ts";
import { decoyHash, hashPassword, verifyPassword } from "./password.ts";
import { type AuthRepo, isUniqueViolation, normalizeEmail } from "./repo.ts";
import type { TokenService } from "./tokens.ts";

/** A session lives at most this long; tokens are re-issued inside it by refresh. */
const SESSION_LIFETIME_MS = 30 * 24 * 3_600_000;
/** Refresh accepts a token that expired at most this long ago (the tab slept, the laptop was closed). */
const REFRESH_GRACE_SECONDS = 7 * 24 * 3_600;
const ATTEMPT_WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_ACCOUNT = 5;
const MAX_FAILURES_PER_ADDRESS = 20;
const INVALID_CREDENTIALS = "Invalid email or password";

export interface AuthServiceDeps {
  db: Db;
  repo: AuthRepo;
  tokens: TokenService;
  now: () => Date;
  newId: () => string;
  passwordIterations: number;
}

export function createAuthService(deps: AuthServiceDeps) {
  const { repo, tokens } = deps;
  let decoy: Promise<string> | undefined;

  async function startSession(userId: string): Promise<AuthResult> {
    const now = deps.now();
    const sessionId = deps.newId();
    await repo.insertSession({
      id: sessionId,
      userId,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    });
    return { user: await requireUser(userId), token: await tokens.issue(userId, sessionId) };
  }

  async function requireUser(userId: string): Promise<User> {
    const user = await loadUserView(deps.db, userId);
    if (!user) throw new UnauthorizedError();
    return user;
  }

  async function assertNotLimited(keys: { key: string; max: number }[]) {
    const now = deps.now().getTime();
    for (const { key, max } of keys) {
      const attempts = await repo.readAttempts(key);
      if (!attempts) continue;
      const windowEnds = new Date(attempts.windowStartedAt).getTime() + ATTEMPT_WINDOW_MS;
      if (attempts.failures >= max && windowEnds > now) {
        const minutes = Math.ceil((windowEnds - now) / 60_000);
        throw new RateLimitError(
          `Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
          (windowEnds - now) / 1000,
        );
      }
    }
  }

  return {
    async register(input: RegisterInput): Promise<AuthResult> {
      const id = deps.newId();
      const passwordHash = await hashPassword(input.password, deps.passwordIterations);
      try {
        await repo.insertUser({
          id,
          name: input.name,
          email: input.email,
          passwordHash,
          now: deps.now().toISOString(),
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError("An account with this email already exists");
        throw error;
      }
      return startSession(id);
    },

    async login(input: LoginInput, clientAddress: string): Promise<AuthResult> {
      const accountKey = `account:${normalizeEmail(input.email)}`;
      const addressKey = `address:${clientAddress}`;
      await assertNotLimited([
        { key: accountKey, max: MAX_FAILURES_PER_ACCOUNT },
        { key: addressKey, max: MAX_FAILURES_PER_ADDRESS },
      ]);
      const credentials = await repo.findCredentialsByEmail(input.email);
      // Verify against a decoy when the email is unknown, so both cases cost the same and answer alike.
      decoy ??= decoyHash(deps.passwordIterations);
      const valid = await verifyPassword(input.password, credentials?.passwordHash ?? (await decoy));
      if (!credentials || !valid) {
        const now = deps.now();
        const windowStartsAfter = new Date(now.getTime() - ATTEMPT_WINDOW_MS).toISOString();
        await repo.recordFailure(accountKey, now.toISOString(), windowStartsAfter);
        await repo.recordFailure(addressKey, now.toISOString(), windowStartsAfter);
        throw new UnauthorizedError(INVALID_CREDENTIALS);
      }
      await repo.clearAttempts(accountKey);
      return startSession(credentials.id);
    },

    /** A valid or recently expired token of a live session gets a fresh token; anything else is 401. */
    async refresh(token: string): Promise<AuthResult> {
      const verdict = await tokens.verify(token, REFRESH_GRACE_SECONDS);
      if (!verdict.ok) throw new UnauthorizedError(MESSAGES.auth.refreshFailed);
      const { userId, sessionId } = verdict.claims;
      const now = deps.now().toISOString();
      if (!(await repo.liveSession(sessionId, userId, now)))
        throw new UnauthorizedError(MESSAGES.auth.refreshFailed);
      await repo.touchSession(sessionId, now);
      return { user: await requireUser(userId), token: await tokens.issue(userId, sessionId) };
    },

    async logout(caller: Caller): Promise<void> {
      await repo.revokeSession(caller.sessionId, deps.now().toISOString());
    },

    me: requireUser,

    /** Changing the password revokes every session of the user, this one included. */
    async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<void> {
      const stored = await repo.findPasswordHash(userId);
      if (!stored || !(await verifyPassword(currentPassword, stored))) {
        throw new ValidationError("Current password is incorrect", [
          { path: "currentPassword", message: "Current password is incorrect" },
        ]);
      }
      await repo.updatePassword(
        userId,
        await hashPassword(newPassword, deps.passwordIterations),
        deps.now().toISOString(),
      );
    },

    /** Gatekeeper: a token is good when its signature and expiry hold and its session is live. */
    async authenticate(token: string): Promise<Caller> {
      const verdict = await tokens.verify(token);
      if (!verdict.ok || verdict.expired) throw new UnauthorizedError();
      const { userId, sessionId } = verdict.claims;
      const session = await repo.liveSession(sessionId, userId, deps.now().toISOString());
      if (!session) throw new UnauthorizedError();
      return { userId, sessionId, subscription: session.subscription };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
