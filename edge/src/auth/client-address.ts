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
  if (!proxy.trustProxy) return peer;
  const forwarded = (request.forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  return chain[Math.max(0, chain.length - 1 - proxy.trustedProxyHops)] ?? peer;
}
