/**
 * What an IP address is, for the outbound guard: public, loopback, private (RFC 1918, CGNAT,
 * unique-local), or something we never call (link-local, cloud metadata, unspecified, multicast,
 * reserved). IPv4-mapped, IPv4-translated, NAT64 and 6to4 IPv6 forms are judged by the IPv4
 * address inside them, so `::ffff:169.254.169.254` is as refused as `169.254.169.254`. An IPv6
 * address counts as public only inside global unicast (2000::/3) and outside its special ranges.
 */
export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "metadata"
  | "unspecified"
  | "reserved";

/** Addresses no outbound call may reach, whatever the configuration. */
export const NEVER_ALLOWED: ReadonlySet<AddressKind> = new Set([
  "link-local",
  "metadata",
  "unspecified",
  "reserved",
]);

export function classifyAddress(address: string): AddressKind | null {
  const text = address
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  const v4 = parseIpv4(text);
  if (v4) return classifyIpv4(v4);
  const v6 = parseIpv6(text);
  return v6 ? classifyIpv6(v6) : null;
}

export function isIpLiteral(host: string): boolean {
  const text = host.replace(/^\[|\]$/g, "");
  return parseIpv4(text) !== null || parseIpv6(text) !== null;
}

function parseIpv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : Number.NaN));
  return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : null;
}

function classifyIpv4([a, b, c, d]: number[]): AddressKind {
  const [x = 0, y = 0, z = 0, w = 0] = [a, b, c, d];
  if (x === 169 && y === 254) return z === 169 && w === 254 ? "metadata" : "link-local";
  // Alibaba Cloud's metadata service sits inside the CGNAT range.
  if (x === 100 && y === 100 && z === 100 && w === 200) return "metadata";
  if (x === 0) return "unspecified";
  if (x === 127) return "loopback";
  if (x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168)) return "private";
  if (x === 100 && y >= 64 && y <= 127) return "private";
  if (x === 198 && (y === 18 || y === 19)) return "private";
  // 192.0.0.0/24 holds protocol assignments (and Oracle Cloud's 192.0.0.192 metadata).
  if (x === 192 && y === 0 && z === 0) return "metadata";
  // Documentation (TEST-NET-1..3) and the retired 6to4 relay anycast range: no service lives there.
  if ((x === 192 && y === 0 && z === 2) || (x === 198 && y === 51 && z === 100)) return "reserved";
  if ((x === 203 && y === 0 && z === 113) || (x === 192 && y === 88 && z === 99)) return "reserved";
  if (x >= 224) return "reserved";
  return "public";
}

/** Eight 16-bit groups, or null when the text is not an IPv6 address. */
function parseIpv6(input: string): number[] | null {
  if (!input.includes(":") || !/^[0-9a-fA-F:.]+$/.test(input)) return null;
  let text = input;
  // A trailing dotted IPv4 (::ffff:1.2.3.4) is the last two groups written differently.
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = parseIpv4(last);
    if (!v4) return null;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const parse = (group: string) =>
    /^[0-9a-fA-F]{1,4}$/.test(group) ? Number.parseInt(group, 16) : Number.NaN;
  const left = groups(halves[0] ?? "").map(parse);
  const right = halves.length === 2 ? groups(halves[1] ?? "").map(parse) : [];
  const missing = 8 - left.length - right.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return null;
  const all = [...left, ...new Array<number>(Math.max(missing, 0)).fill(0), ...right];
  return all.every((group) => Number.isInteger(group)) ? all : null;
}

function classifyIpv6(groups: number[]): AddressKind {
  const g = (index: number) => groups[index] ?? 0;
  const zero = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const embedded = () => [g(6) >> 8, g(6) & 0xff, g(7) >> 8, g(7) & 0xff];
  if (zero(0, 8)) return "unspecified";
  if (zero(0, 7) && g(7) === 1) return "loopback";
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (deprecated compatible), ::ffff:0:a.b.c.d (SIIT translated),
  // 64:ff9b::a.b.c.d (NAT64): each reaches the IPv4 address it carries.
  if (zero(0, 5) && (g(5) === 0xffff || g(5) === 0)) return classifyIpv4(embedded());
  if (zero(0, 4) && g(4) === 0xffff && g(5) === 0) return classifyIpv4(embedded());
  if (g(0) === 0x64 && g(1) === 0xff9b && zero(2, 6)) return classifyIpv4(embedded());
  // 6to4 carries an IPv4 address in groups 1-2.
  if (g(0) === 0x2002) return classifyIpv4([g(1) >> 8, g(1) & 0xff, g(2) >> 8, g(2) & 0xff]);
  // AWS's IPv6 instance metadata endpoint (fd00:ec2::254) sits inside the unique-local range.
  if (g(0) === 0xfd00 && g(1) === 0x0ec2 && zero(2, 7) && g(7) === 0x254) return "metadata";
  if ((g(0) & 0xffc0) === 0xfe80) return "link-local";
  if ((g(0) & 0xfe00) === 0xfc00) return "private";
  if ((g(0) & 0xff00) === 0xff00) return "reserved";
  // Outside global unicast (2000::/3): the rest of ::/8, local-use NAT64 64:ff9b:1::/48,
  // discard-only 100::/64, deprecated site-local fec0::/10 and every unassigned block.
  if ((g(0) & 0xe000) !== 0x2000) return "reserved";
  // 2001::/23 is protocol assignments: Teredo 2001::/32 tunnels to an IPv4 address of its own,
  // benchmarking 2001:2::/48, ORCHID 2001:10::/28 and 2001:20::/28.
  if (g(0) === 0x2001 && g(1) < 0x0200) return "reserved";
  // Documentation: 2001:db8::/32 and 3fff::/20.
  if ((g(0) === 0x2001 && g(1) === 0x0db8) || (g(0) & 0xfff0) === 0x3ff0) return "reserved";
  return "public";
}
