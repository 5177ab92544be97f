/**
 * The address the attempt limits key on. Behind a proxy (TRUST_PROXY) it comes from
 * X-Forwarded-For read from the right: each proxy appends the address that connected to it, so
 * only the right-most entries were written by our proxies and anything to their left may be forged
 * by the client. The socket peer is the innermost proxy; `trustedProxyHops` proxies in all means the
 * client is that many entries left of it. A shorter list means the request came in past the outer
 * proxies, and its left-most entry was still written by one of ours.
 */
export function clientAddressOf(
  proxy: { trustProxy: boolean; trustedProxyHops: number },
  request: { forwardedFor: string | undefined; peer: string | undefined },
): string {
  const peer = request.peer ?? "unknown";
  if (!proxy.trustProxy) return limitedBlock(peer);
  const forwarded = (request.forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  return limitedBlock(chain[Math.max(0, chain.length - 1 - proxy.trustedProxyHops)] ?? peer);
}

/**
 * An IPv6 client picks the host half of its address freely (a /64 is one subscriber's network), so
 * each address alone would be a fresh budget: the limits take its /64. An IPv4-mapped address is
 * its IPv4 address; anything else (IPv4, or text that is no IPv6 address) is kept as it is.
 */
function limitedBlock(address: string): string {
  const groups = ipv6Groups(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  if (!groups) return address;
  const [a, b, c, d, e, f, g, h] = groups;
  if (
    a === 0 &&
    b === 0 &&
    c === 0 &&
    d === 0 &&
    e === 0 &&
    f === 0xffff &&
    g !== undefined &&
    h !== undefined
  ) {
    return [g >> 8, g & 0xff, h >> 8, h & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a dotted IPv4 tail), or null. */
function ipv6Groups(text: string): number[] | null {
  if (!text.includes(":")) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (half: string | undefined): number[] | null => {
    if (!half) return [];
    const groups: number[] = [];
    for (const part of half.split(":")) {
      if (/^[0-9a-f]{1,4}$/i.test(part)) groups.push(Number.parseInt(part, 16));
      else if (/^\d{1,3}(\.\d{1,3}){3}$/.test(part)) {
        const [w = 0, x = 0, y = 0, z = 0] = part.split(".").map(Number);
        if ([w, x, y, z].some((byte) => byte > 255)) return null;
        groups.push((w << 8) | x, (y << 8) | z);
      } else return null;
    }
    return groups;
  };
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
}
