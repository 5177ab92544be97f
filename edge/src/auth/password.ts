/**
 * Password hashing with WebCrypto PBKDF2-SHA256 (available on Deno Deploy, Deno and Node).
 * Stored as `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>` so the cost can rise later and old
 * hashes still verify.
 */
import { constantTimeEqual, fromBase64, toBase64 } from "../security/bytes.ts";

const HASH_BYTES = 32;

export async function hashPassword(password: string, iterations: number): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, iterations);
  return `pbkdf2-sha256$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterationsText, saltText, hashText] = stored.split("$");
  if (scheme !== "pbkdf2-sha256" || !iterationsText || !saltText || !hashText) return false;
  const expected = fromBase64(hashText);
  const actual = await derive(password, fromBase64(saltText), Number(iterationsText));
  return constantTimeEqual(actual, expected);
}

/** A hash of a random password: verifying against it costs the same as a real one (no user enumeration by timing). */
export function decoyHash(iterations: number): Promise<string> {
  return hashPassword(crypto.randomUUID(), iterations);
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as Uint8Array<ArrayBuffer>, iterations },
    key,
    HASH_BYTES * 8,
  );
  return new Uint8Array(bits);
}
