import {
  type CreatedToken,
  type CreateTokenInput,
  MESSAGES,
  PERSONAL_TOKEN_PREFIX,
  type PersonalToken,
} from "@stockbridge/shared";
import { ConflictError, NotFoundError, UnauthorizedError } from "../errors.ts";
import type { Caller } from "../http/types.ts";
import { sha256Hex, toBase64Url } from "../security/bytes.ts";
import type { TokenRepo } from "./repo.ts";

/** 32 random bytes: 256 bits, written as 43 base64url characters after the prefix. */
const SECRET_BYTES = 32;
const TOKEN_PATTERN = /^sbk_[A-Za-z0-9_-]{43}$/;
/** The visible start of a token in lists: the prefix and 8 characters (48 of its 256 bits). */
const VISIBLE_LENGTH = PERSONAL_TOKEN_PREFIX.length + 8;
/** A token's last use is written at most this often, not on every request it makes. */
const LAST_USED_PRECISION_MS = 60_000;
/** Enough for every script and machine of one account; keeps one account from filling the table. */
const MAX_TOKENS_PER_USER = 50;
const DAY_MS = 86_400_000;

export interface TokenServiceDeps {
  repo: TokenRepo;
  now: () => Date;
  newId: () => string;
}

/** Personal API tokens: created with a secret shown once, kept as a hash, and verified by it. */
export function createPersonalTokenService(deps: TokenServiceDeps) {
  const { repo } = deps;

  return {
    async create(userId: string, input: CreateTokenInput): Promise<CreatedToken> {
      const now = deps.now();
      const token = `${PERSONAL_TOKEN_PREFIX}${toBase64Url(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))}`;
      const row = {
        id: deps.newId(),
        userId,
        name: input.name,
        prefix: token.slice(0, VISIBLE_LENGTH),
        tokenHash: await hashToken(token),
        createdAt: now.toISOString(),
        expiresAt:
          input.expiresInDays == null
            ? null
            : new Date(now.getTime() + input.expiresInDays * DAY_MS).toISOString(),
      };
      if (!(await repo.insert(row, MAX_TOKENS_PER_USER))) {
        throw new ConflictError(
          `Cannot create API token: you already have ${MAX_TOKENS_PER_USER}. Revoke one you no longer use first.`,
        );
      }
      return {
        token,
        _id: row.id,
        name: row.name,
        prefix: row.prefix,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
      };
    },

    list(userId: string): Promise<PersonalToken[]> {
      return repo.list(userId);
    },

    /** Deleting the row revokes the token at once: the next request with it finds no hash. */
    async revoke(userId: string, id: string): Promise<void> {
      if (!(await repo.delete(userId, id))) throw new NotFoundError(MESSAGES.tokens.notFound);
    },

    /**
     * The caller a token speaks for, or 401 when it is malformed, unknown (revoked) or expired.
     * Its last use is recorded when the recorded one is a minute old or more.
     */
    async authenticate(token: string): Promise<Caller> {
      if (!TOKEN_PATTERN.test(token)) throw new UnauthorizedError(MESSAGES.tokens.invalid);
      const now = deps.now();
      const bearer = await repo.findBearer(await hashToken(token), now.toISOString());
      if (!bearer) throw new UnauthorizedError(MESSAGES.tokens.invalid);
      const recentEnough = new Date(now.getTime() - LAST_USED_PRECISION_MS).toISOString();
      if (bearer.lastUsedAt === null || bearer.lastUsedAt <= recentEnough) {
        await repo.touch(bearer.id, { now: now.toISOString(), unlessAfter: recentEnough });
      }
      return {
        userId: bearer.userId,
        sessionId: null,
        personalTokenId: bearer.id,
        subscription: bearer.subscription,
      };
    },
  };
}

export type PersonalTokenService = ReturnType<typeof createPersonalTokenService>;

/** True when a Bearer value is meant as a personal API token rather than a session JWT. */
export function isPersonalToken(token: string): boolean {
  return token.startsWith(PERSONAL_TOKEN_PREFIX);
}

/**
 * SHA-256, hex. A fast hash is right here, unlike for passwords: the token is 256 random bits, so
 * no dictionary or brute force over the hash can find it, and a slow hash would only cost every
 * request. An unsalted hash is what lets the token be found by one indexed lookup.
 */
function hashToken(token: string): Promise<string> {
  return sha256Hex(token);
}
