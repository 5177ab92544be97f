/**
 * Connection secrets at rest: AES-256-GCM with WebCrypto. The key ring comes from configuration as
 * `id:base64key,...`; the first key seals, every key opens, and the sealed text names its key
 * (`v1:{keyId}:{iv}:{ciphertext}`), so keys can be rotated by putting a new one first. Each secret
 * is bound to its owner and purpose (additional data), so a sealed value copied to another row or
 * user does not open there.
 */
import { fromBase64, fromBase64Url, toBase64Url } from "./bytes.ts";

export interface SecretBox {
  seal(plaintext: string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<string>;
}

export class SecretBoxError extends Error {
  override name = "SecretBoxError";
}

interface RingKey {
  id: string;
  raw: Uint8Array;
}

const VERSION = "v1";
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** Parses and checks the ring at once (a bad ENCRYPTION_KEYS fails at start, not at first save). */
export function createSecretBox(keyRing: string | undefined): SecretBox {
  const ring = parseKeyRing(keyRing);
  const imported = new Map<string, Promise<CryptoKey>>();
  const keyFor = (key: RingKey) => {
    let promise = imported.get(key.id);
    if (!promise) {
      promise = crypto.subtle.importKey("raw", key.raw as BufferSource, "AES-GCM", false, [
        "encrypt",
        "decrypt",
      ]);
      imported.set(key.id, promise);
    }
    return promise;
  };

  return {
    async seal(plaintext, context) {
      const key = ring[0];
      if (!key)
        throw new SecretBoxError("Connection secrets cannot be stored: ENCRYPTION_KEYS is not configured.");
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const data = new TextEncoder().encode(plaintext);
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: aad(context) },
        await keyFor(key),
        data,
      );
      return [VERSION, key.id, toBase64Url(iv), toBase64Url(new Uint8Array(sealed))].join(":");
    },
    async open(sealed, context) {
      const [version, keyId, iv, body] = sealed.split(":");
      if (version !== VERSION || !keyId || !iv || !body)
        throw new SecretBoxError("A stored secret is not in a known format.");
      const key = ring.find((candidate) => candidate.id === keyId);
      if (!key)
        throw new SecretBoxError(
          `A stored secret was sealed with key "${keyId}", which is no longer in ENCRYPTION_KEYS.`,
        );
      try {
        const opened = await crypto.subtle.decrypt(
          { name: "AES-GCM", iv: fromBase64Url(iv) as BufferSource, additionalData: aad(context) },
          await keyFor(key),
          fromBase64Url(body) as BufferSource,
        );
        return new TextDecoder().decode(opened);
      } catch {
        throw new SecretBoxError("A stored secret could not be decrypted (wrong key or tampered value).");
      }
    },
  };
}

export function parseKeyRing(text: string | undefined): RingKey[] {
  if (!text?.trim()) return [];
  const ring: RingKey[] = [];
  for (const entry of text.split(",")) {
    const trimmed = entry.trim();
    const colon = trimmed.indexOf(":");
    const id = trimmed.slice(0, colon);
    if (colon <= 0 || !KEY_ID.test(id)) {
      throw new SecretBoxError(
        'ENCRYPTION_KEYS must be "id:base64key" pairs separated by commas (ids: letters, digits, - or _).',
      );
    }
    let raw: Uint8Array;
    try {
      raw = fromBase64(trimmed.slice(colon + 1));
    } catch {
      throw new SecretBoxError(`ENCRYPTION_KEYS: the key "${id}" is not valid base64.`);
    }
    if (raw.length !== 32)
      throw new SecretBoxError(`ENCRYPTION_KEYS: the key "${id}" must be 32 bytes (got ${raw.length}).`);
    if (ring.some((key) => key.id === id))
      throw new SecretBoxError(`ENCRYPTION_KEYS: the key id "${id}" appears twice.`);
    ring.push({ id, raw });
  }
  return ring;
}

function aad(context: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`stockbridge:${context}`);
}
