const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Stripe-looking ids (`cus_` + 14 characters, `sub_` + 24...), random so they never repeat across resets. */
export function newId(prefix: string, length = 24): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let body = "";
  for (const byte of bytes) body += ALPHABET[byte % ALPHABET.length];
  return `${prefix}${body}`;
}

export const ID_LENGTHS = {
  customer: 14,
  subscriptionItem: 14,
  request: 14,
  checkoutSession: 58,
  default: 24,
} as const;
