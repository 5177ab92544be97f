import type { AuthResult, LoginInput, RegisterInput, User } from "@stockbridge/shared";
import { MESSAGES, tooManyAttempts } from "@stockbridge/shared";
import { ConflictError, RateLimitError, UnauthorizedError, ValidationError } from "../errors.ts";
import type { Caller } from "../http/types.ts";
import type { UserViewRepo } from "../users/repo.ts";
import { PASSWORD_CHECK_LIMIT, registerLimit, SIGN_IN_LIMITS } from "./attempt-limits.ts";
import type { AttemptRepo, Reservation } from "./attempt-repo.ts";
import { decoyHash, hashPassword, verifyPassword } from "./password.ts";
import { type AuthRepo, isUniqueViolation, normalizeEmail } from "./repo.ts";
import type { TokenService } from "./tokens.ts";

/** A session lives at most this long; tokens are re-issued inside it by refresh. */
const SESSION_LIFETIME_MS = 30 * 24 * 3_600_000;
/** Refresh accepts a token that expired at most this long ago (the tab slept, the laptop was closed). */
const REFRESH_GRACE_SECONDS = 7 * 24 * 3_600;
const INVALID_CREDENTIALS = "Invalid email or password";

export interface AuthServiceDeps {
  repo: AuthRepo;
  /** The user object every auth answer carries. */
  users: UserViewRepo;
  attempts: AttemptRepo;
  tokens: TokenService;
  now: () => Date;
  newId: () => string;
  passwordIterations: number;
  registrationsPerMinute: number;
}

export function createAuthService(deps: AuthServiceDeps) {
  const { repo, attempts, tokens } = deps;
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
    const user = await deps.users.find(userId);
    if (!user) throw new UnauthorizedError();
    return user;
  }

  /** The reserved attempt's number, or the 429 of the limit that refused it (no hash was spent). */
  function admitted(reservation: Reservation, action: Parameters<typeof tooManyAttempts>[0]): number {
    if (reservation.admitted) return reservation.seq;
    const seconds = reservation.retryAfterMs / 1000;
    throw new RateLimitError(tooManyAttempts(action, seconds), seconds);
  }

  return {
    /** Every registration costs a hash, so each address gets registerLimit() of them, whatever their outcome. */
    async register(input: RegisterInput, clientAddress: string): Promise<AuthResult> {
      admitted(
        await attempts.reserveAttempt({
          action: "register",
          account: "",
          address: clientAddress,
          now: deps.now().getTime(),
          limit: registerLimit(deps.registrationsPerMinute),
        }),
        "register",
      );
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

    /** The attempt is reserved under SIGN_IN_LIMITS before the hash runs (unknown emails alike). */
    async login(input: LoginInput, clientAddress: string): Promise<AuthResult> {
      const seq = admitted(
        await attempts.reserveSignIn({
          account: normalizeEmail(input.email),
          address: clientAddress,
          now: deps.now().getTime(),
          limits: SIGN_IN_LIMITS,
        }),
        "signIn",
      );
      const credentials = await repo.findCredentialsByEmail(input.email);
      // Verify against a decoy when the email is unknown, so both cases cost the same and answer alike.
      decoy ??= decoyHash(deps.passwordIterations);
      const valid = await verifyPassword(input.password, credentials?.passwordHash ?? (await decoy));
      if (!credentials || !valid) {
        await attempts.settleFailure(seq);
        throw new UnauthorizedError(INVALID_CREDENTIALS);
      }
      await attempts.settleSuccess(seq, SIGN_IN_LIMITS.knownAddressMs);
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

    /** Ends the caller's session; a personal API token has none (its scope refuses sign-out). */
    async logout(caller: Caller): Promise<void> {
      if (caller.sessionId === null) return;
      await repo.revokeSession(caller.sessionId, deps.now().toISOString());
    },

    me: requireUser,

    /**
     * Changing the password revokes every session of the user, this one included. Checks of the
     * current password are reserved under PASSWORD_CHECK_LIMIT first.
     */
    async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<void> {
      const seq = admitted(
        await attempts.reserveAttempt({
          action: "password-check",
          account: userId,
          address: "",
          now: deps.now().getTime(),
          limit: PASSWORD_CHECK_LIMIT,
        }),
        "passwordCheck",
      );
      const stored = await repo.findPasswordHash(userId);
      if (!stored || !(await verifyPassword(currentPassword, stored))) {
        await attempts.settleFailure(seq);
        throw new ValidationError("Current password is incorrect", [
          { path: "currentPassword", message: "Current password is incorrect" },
        ]);
      }
      await attempts.settleSuccess(seq, PASSWORD_CHECK_LIMIT.windowMs);
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
      return { userId, sessionId, personalTokenId: null, subscription: session.subscription };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
