import { errors, type JWTPayload, jwtVerify, SignJWT } from "jose";

const ISSUER = "stockbridge";
const AUDIENCE = "stockbridge-api";

export interface TokenClaims {
  userId: string;
  sessionId: string;
  /** Seconds since epoch. */
  expiresAt: number;
}

export type TokenVerdict = { ok: true; claims: TokenClaims; expired: boolean } | { ok: false };

/** Tokens whose signature and fixed claims were checked, kept so a busy session is not re-verified. */
const VERIFIED_TOKENS = 1_000;

/** HS256 session tokens. Only HS256 is accepted, so `alg: none` and algorithm swaps are rejected. */
export function createTokenService(secret: string, ttlSeconds: number, now: () => Date) {
  // Imported once, on first use: jose would otherwise import raw key bytes on every call.
  let imported: Promise<CryptoKey> | undefined;
  const key = () =>
    (imported ??= crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    ));
  // Signature, algorithm, issuer and audience of a token never change, so a token that passed them
  // is remembered (by its full text); the time checks below still run on every call.
  const verified = new Map<string, JWTPayload>();

  async function issue(userId: string, sessionId: string): Promise<string> {
    const issuedAt = Math.floor(now().getTime() / 1000);
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ttlSeconds)
      .sign(await key());
  }

  /**
   * Checks signature, issuer and audience. An expired token is reported as such (refresh accepts a
   * recently expired one) instead of being rejected outright.
   */
  async function verify(token: string, graceSeconds = 0): Promise<TokenVerdict> {
    const known = verified.get(token);
    if (known) {
      // Most recently used goes last; the first entry is the one to evict.
      verified.delete(token);
      verified.set(token, known);
      return verdict(known, graceSeconds);
    }
    try {
      const { payload } = await jwtVerify(token, await key(), {
        algorithms: ["HS256"],
        issuer: ISSUER,
        audience: AUDIENCE,
        clockTolerance: graceSeconds,
        currentDate: now(),
      });
      const checked = verdict(payload, graceSeconds);
      if (checked.ok) {
        verified.set(token, payload);
        if (verified.size > VERIFIED_TOKENS) verified.delete(verified.keys().next().value as string);
      }
      return checked;
    } catch (error) {
      if (error instanceof errors.JOSEError) return { ok: false };
      throw error;
    }
  }

  /**
   * The claims of a token with a good signature, at the current time: jose's own time checks
   * (`nbf` not in the future, `exp` not past, both within the grace), then the shape we issue.
   */
  function verdict(payload: JWTPayload, graceSeconds: number): TokenVerdict {
    const nowSeconds = Math.floor(now().getTime() / 1000);
    if (typeof payload.nbf === "number" && payload.nbf > nowSeconds + graceSeconds) return { ok: false };
    if (typeof payload.exp === "number" && payload.exp <= nowSeconds - graceSeconds) return { ok: false };
    if (
      typeof payload.sub !== "string" ||
      typeof payload.sid !== "string" ||
      typeof payload.exp !== "number"
    ) {
      return { ok: false };
    }
    return {
      ok: true,
      expired: payload.exp <= nowSeconds,
      claims: { userId: payload.sub, sessionId: payload.sid, expiresAt: payload.exp },
    };
  }

  return { issue, verify };
}

export type TokenService = ReturnType<typeof createTokenService>;
