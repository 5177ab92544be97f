import { type AddressKind, classifyAddress, isIpLiteral, NEVER_ALLOWED } from "./ip-address.ts";

/** DNS lookup injected by the runtime: every A and AAAA address of a host name. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** The `fetch` shape the connectors call. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The addresses the guard checked for one request's host. */
export interface CheckedTarget {
  addresses: readonly string[];
}

/**
 * The outbound HTTP the app is given (main.ts: pinned-fetch.ts over Deno sockets): it must connect
 * to one of `target.addresses` and never resolve the host itself, so what was checked is what is
 * reached.
 */
export type PinnedFetch = (
  input: string | URL | Request,
  init: RequestInit | undefined,
  target: CheckedTarget,
) => Promise<Response>;

export interface OutboundPolicy {
  /** Loopback and private ranges (sandbox mode, on-premises ERPs); link-local and metadata never. */
  allowPrivateNetwork: boolean;
  /** Production refuses plain http. */
  requireHttps: boolean;
  resolveHost: ResolveHost;
  /** How long `fetch` reuses a host's verdict, so a pull of 500 pages does not resolve 500 times. */
  cacheMs?: number;
}

/** Why an outbound address is refused; `unresolvable` means DNS gave nothing (an unreachable host). */
export class OutboundRefusedError extends Error {
  constructor(
    message: string,
    readonly kind: "blocked" | "unresolvable",
  ) {
    super(message);
    this.name = "OutboundRefusedError";
  }
}

// Names of cloud metadata services, refused before any lookup (they resolve to link-local addresses).
const METADATA_HOSTS = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
]);

const KIND_TEXT: Record<AddressKind, string> = {
  public: "a public address",
  loopback: "a loopback address",
  private: "a private network address",
  "link-local": "a link-local address",
  metadata: "a cloud metadata address",
  unspecified: "an unspecified address",
  reserved: "a reserved address",
};

export interface OutboundGuard {
  /** Throws OutboundRefusedError when `url` may not be called; always resolves the host afresh. */
  check(url: string | URL): Promise<void>;
  /**
   * `fetch` that checks every URL first, connects only to the addresses it checked and never
   * follows a redirect on its own.
   */
  fetch: FetchLike;
}

/** Connection failures to a private address all read the same, so no one maps a network with them. */
export const PRIVATE_NETWORK_FAILURE =
  "no connection could be made (the reason is not shown for private network addresses)";

/**
 * Server-side request forgery defence for the addresses users type (Acumatica instance URL, Shopify
 * store name): scheme, then every address the host resolves to. Redirects are not followed, so a
 * checked host cannot bounce a request to a metadata endpoint.
 */
export function createOutboundGuard(policy: OutboundPolicy, baseFetch: PinnedFetch): OutboundGuard {
  const cacheMs = policy.cacheMs ?? 10_000;
  type Verdict = { addresses: Judged[] } | { error: OutboundRefusedError };
  const verdicts = new Map<string, { until: number; verdict: Verdict }>();

  /** The checked addresses of a host; a cached verdict keeps the addresses it was given for. */
  async function checkHost(hostname: string, fresh: boolean): Promise<Judged[]> {
    const cached = fresh ? undefined : verdicts.get(hostname);
    if (cached && cached.until > Date.now()) {
      if ("error" in cached.verdict) throw cached.verdict.error;
      return cached.verdict.addresses;
    }
    let verdict: Verdict;
    try {
      verdict = { addresses: await judgeHost(hostname, policy) };
    } catch (caught) {
      if (!(caught instanceof OutboundRefusedError)) throw caught;
      verdict = { error: caught };
    }
    // Unresolvable names are not cached: the next attempt may succeed.
    if (!("error" in verdict) || verdict.error.kind === "blocked")
      verdicts.set(hostname, { until: Date.now() + cacheMs, verdict });
    if ("error" in verdict) throw verdict.error;
    return verdict.addresses;
  }

  async function check(input: string | URL, fresh: boolean): Promise<Judged[]> {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new OutboundRefusedError("the address is not a valid URL", "blocked");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new OutboundRefusedError(`the address must start with https:// (got ${url.protocol})`, "blocked");
    }
    if (policy.requireHttps && url.protocol !== "https:") {
      throw new OutboundRefusedError("the address must use https://", "blocked");
    }
    if (url.username || url.password) {
      throw new OutboundRefusedError("the address must not contain a user name or password", "blocked");
    }
    return checkHost(url.hostname.toLowerCase().replace(/\.$/, ""), fresh);
  }

  return {
    async check(url) {
      await check(url, true);
    },
    async fetch(input, init) {
      const judged = await check(input instanceof Request ? input.url : input, false);
      const target = { addresses: judged.map((entry) => entry.address) };
      const privateTarget = judged.some((entry) => entry.kind === "loopback" || entry.kind === "private");
      try {
        return await baseFetch(input, { ...init, redirect: "manual" }, target);
      } catch (error) {
        // Refused, reset, timed out, TLS failed: one text for all on a private network. A caller's
        // own cancel stays what it is (its reason is not a timeout).
        const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
        const cancelled = signal?.aborted && !isTimeoutReason(signal.reason);
        if (!privateTarget || cancelled) throw error;
        throw new TypeError(PRIVATE_NETWORK_FAILURE);
      }
    },
  };
}

function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof Error && reason.name === "TimeoutError";
}

interface Judged {
  address: string;
  kind: AddressKind;
}

async function judgeHost(hostname: string, policy: OutboundPolicy): Promise<Judged[]> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (METADATA_HOSTS.has(bare)) {
    throw new OutboundRefusedError(`${bare} is a cloud metadata service`, "blocked");
  }
  let addresses: string[];
  if (isIpLiteral(bare)) {
    addresses = [bare];
  } else if (bare === "localhost" || bare.endsWith(".localhost")) {
    // RFC 6761: always loopback, whatever a DNS server says (and resolvers that skip /etc/hosts).
    addresses = ["127.0.0.1", "::1"];
  } else {
    try {
      addresses = await policy.resolveHost(bare);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0)
      throw new OutboundRefusedError(`the host name ${bare} does not resolve`, "unresolvable");
  }
  return addresses.map((address) => {
    const kind = classifyAddress(address);
    if (kind === null)
      throw new OutboundRefusedError(`${bare} resolves to an unrecognised address (${address})`, "blocked");
    const refused =
      NEVER_ALLOWED.has(kind) || ((kind === "loopback" || kind === "private") && !policy.allowPrivateNetwork);
    if (refused) {
      const where = address === bare ? address : `${bare} resolves to ${address}`;
      throw new OutboundRefusedError(`${where}, ${KIND_TEXT[kind]}, which may not be called`, "blocked");
    }
    return { address, kind };
  });
}

/** Without a resolver only IP literals can be judged; a host name is refused rather than trusted. */
export const noDnsResolver: ResolveHost = async () => [];
