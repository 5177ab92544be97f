import { errors, jwtVerify, SignJWT } from "jose";

const ISSUER = "stockbridge";
const AUDIENCE = "stockbridge-api";

export interface TokenClaims {
  userId: string;
  sessionId: string;
  /** Seconds since epoch. */
  expiresAt: number;
}

export type TokenVerdict = { ok: true; claims: TokenClaims; expired: boolean } | { ok: false };

/** HS256 session tokens. Only HS256 is accepted, so `alg: none` and algorithm swaps are rejected. */
export function createTokenService(secret: string, ttlSeconds: number, now: () => Date) {
  const key = new TextEncoder().encode(secret);

  async function issue(userId: string, sessionId: string): Promise<string> {
    const issuedAt = Math.floor(now().getTime() / 1000);
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ttlSeconds)
      .sign(key);
  }

  /**
   * Checks signature, issuer and audience. An expired token is reported as such (refresh accepts a
   * recently expired one) instead of being rejected outright.
   */
  async function verify(token: string, graceSeconds = 0): Promise<TokenVerdict> {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ["HS256"],
        issuer: ISSUER,
        audience: AUDIENCE,
        clockTolerance: graceSeconds,
        currentDate: now(),
      });
      if (
        typeof payload.sub !== "string" ||
        typeof payload.sid !== "string" ||
        typeof payload.exp !== "number"
      ) {
        return { ok: false };
      }
      const expired = payload.exp <= Math.floor(now().getTime() / 1000);
      return {
        ok: true,
        expired,
        claims: { userId: payload.sub, sessionId: payload.sid, expiresAt: payload.exp },
      };
    } catch (error) {
      if (error instanceof errors.JOSEError) return { ok: false };
      throw error;
    }
  }

  return { issue, verify };
}

export type TokenService = ReturnType<typeof createTokenService>;
