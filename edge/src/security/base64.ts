/** Standard base64 over WebCrypto's byte arrays (password hashes, sealed secrets). */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** atob drops ASCII whitespace itself (forgiving-base64), so callers need not trim. */
export function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}
