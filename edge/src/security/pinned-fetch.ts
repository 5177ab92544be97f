import { isIpLiteral } from "./ip-address.ts";
import type { FetchLike, PinnedFetch } from "./outbound-guard.ts";

/** A byte stream to one address; TLS, when asked for, is already set up and verified. */
export interface ByteConnection {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
  close(): void;
}

/**
 * Opens TCP to `address` (an IP, never a name: no DNS here) and, for https, TLS whose SNI and
 * certificate check use `tlsHostname`. The runtime provides it (main.ts: Deno.connect + startTls).
 */
export type OpenConnection = (options: {
  address: string;
  port: number;
  tlsHostname: string | null;
}) => Promise<ByteConnection>;

const MAX_HEAD_BYTES = 64 * 1024;
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
const encoder = new TextEncoder();
const decoder = new TextDecoder("latin1");

/**
 * Outbound HTTP that connects only to the addresses the guard checked. A URL whose host is an IP
 * literal needs no DNS, so the runtime's `fetch` takes it as is. For a host name the runtime's
 * `fetch` would resolve the name again (a DNS answer may change between check and connect), so
 * the request goes as HTTP/1.1 over a connection opened to a checked address, with the URL's host
 * in `Host` and in TLS. One request per connection (`Connection: close`); redirects never followed.
 */
export function createPinnedFetch(options: { fetch: FetchLike; open: OpenConnection }): PinnedFetch {
  return async (input, init, target) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (isIpLiteral(url.hostname)) return options.fetch(input, init);
    return exchange(new Request(input, init), { url, addresses: target.addresses, open: options.open });
  };
}

async function exchange(
  request: Request,
  { url, addresses, open }: { url: URL; addresses: readonly string[]; open: OpenConnection },
): Promise<Response> {
  const signal = request.signal;
  signal.throwIfAborted();
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
  const connection = await untilAborted(connectFirst(url, addresses, open), signal, (late) => late.close());
  const abort = () => connection.close();
  signal.addEventListener("abort", abort, { once: true });
  const done = () => {
    signal.removeEventListener("abort", abort);
    connection.close();
  };
  try {
    const writer = connection.writable.getWriter();
    await writer.write(encoder.encode(requestHead(request, url, body)));
    if (body && body.byteLength > 0) await writer.write(body);
    writer.releaseLock();
    const reader = new ByteReader(connection.readable.getReader());
    let head = await readHead(reader);
    // Informational answers (100 Continue, 103 Early Hints) precede the real one.
    for (let informational = 1; head.status < 200; informational += 1) {
      if (head.status === 101 || informational > 8)
        throw new TypeError(`the server answered ${head.status} where an answer was due`);
      head = await readHead(reader);
    }
    const noBody = request.method === "HEAD" || NULL_BODY_STATUSES.has(head.status);
    if (noBody) done();
    const stream = noBody
      ? null
      : decoded(bodyStream(reader, { headers: head.headers, done, signal }), head.headers);
    return new Response(stream, { status: head.status, statusText: head.statusText, headers: head.headers });
  } catch (error) {
    done();
    throw signal.aborted ? signal.reason : error;
  }
}

/** Tries the checked addresses in order (IPv4 first); the last failure is the cause. */
async function connectFirst(url: URL, addresses: readonly string[], open: OpenConnection) {
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const tlsHostname = url.protocol === "https:" ? url.hostname : null;
  const ordered = [...addresses].sort((a, b) => Number(a.includes(":")) - Number(b.includes(":")));
  let cause: unknown = new Error("no address to connect to");
  for (const address of ordered) {
    try {
      return await open({ address, port, tlsHostname });
    } catch (error) {
      cause = error;
    }
  }
  throw new TypeError("fetch failed", { cause });
}

/** Rejects with the abort reason as soon as the signal fires; a result arriving later is released. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, release: (late: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) release(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function requestHead(request: Request, url: URL, body: Uint8Array | null): string {
  const lines = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  const framing = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding", "te"]);
  request.headers.forEach((value, name) => {
    if (!framing.has(name)) lines.push(`${name}: ${value}`);
  });
  if (!request.headers.has("accept")) lines.push("Accept: */*");
  if (!request.headers.has("accept-encoding")) lines.push("Accept-Encoding: gzip");
  if (body || !["GET", "HEAD", "OPTIONS", "DELETE"].includes(request.method)) {
    lines.push(`Content-Length: ${body?.byteLength ?? 0}`);
  }
  lines.push("Connection: close");
  return `${lines.join("\r\n")}\r\n\r\n`;
}

interface Head {
  status: number;
  statusText: string;
  headers: Headers;
}

async function readHead(reader: ByteReader): Promise<Head> {
  const statusLine = await reader.line();
  const match = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine);
  if (!match) throw new TypeError("the server did not answer HTTP/1.1");
  const headers = new Headers();
  let size = statusLine.length;
  for (let line = await reader.line(); line !== ""; line = await reader.line()) {
    size += line.length + 2;
    if (size > MAX_HEAD_BYTES) throw new TypeError("the server sent too large a header");
    const colon = line.indexOf(":");
    if (colon <= 0 || /^\s/.test(line)) throw new TypeError("the server sent a malformed header line");
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return { status: Number(match[1]), statusText: match[2] ?? "", headers };
}

/** The body as its framing says: chunked, a Content-Length, or until the server closes. */
function bodyStream(
  reader: ByteReader,
  { headers, done, signal }: { headers: Headers; done: () => void; signal: AbortSignal },
): ReadableStream<Uint8Array> {
  // A Transfer-Encoding overrides Content-Length; one not ending in chunked runs until close.
  const transfer = headers.get("transfer-encoding");
  const chunked = transfer !== null && /(?:^|,)\s*chunked\s*$/i.test(transfer);
  const lengthText = transfer === null ? headers.get("content-length") : null;
  const length = lengthText === null ? null : Number(lengthText);
  if (length !== null && !(Number.isSafeInteger(length) && length >= 0)) {
    throw new TypeError("the server sent an invalid Content-Length");
  }
  let remaining = length ?? 0;
  let inChunk = 0;
  const next = async (): Promise<Uint8Array | null> => {
    if (length !== null) {
      if (remaining === 0) return null;
      const bytes = await reader.some(remaining);
      if (!bytes) throw new TypeError("the connection closed before the body ended");
      remaining -= bytes.byteLength;
      return bytes;
    }
    if (!chunked) return reader.some(Number.POSITIVE_INFINITY);
    if (inChunk === 0) {
      const sizeText = (await reader.line()).split(";")[0]?.trim() ?? "";
      if (!/^[0-9a-f]{1,12}$/i.test(sizeText)) throw new TypeError("the server sent a malformed chunk");
      const size = Number.parseInt(sizeText, 16);
      if (size === 0) {
        while ((await reader.line()) !== "") {
          // trailer fields are not used
        }
        return null;
      }
      inChunk = size;
    }
    const bytes = await reader.some(inChunk);
    if (!bytes) throw new TypeError("the connection closed inside a chunk");
    inChunk -= bytes.byteLength;
    if (inChunk === 0 && (await reader.line()) !== "")
      throw new TypeError("the server sent a malformed chunk");
    return bytes;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const bytes = await next();
        if (bytes) {
          controller.enqueue(bytes);
          return;
        }
        done();
        controller.close();
      } catch (error) {
        done();
        controller.error(signal.aborted ? signal.reason : error);
      }
    },
    cancel: done,
  });
}

function decoded(stream: ReadableStream<Uint8Array>, headers: Headers): ReadableStream<Uint8Array> {
  const coding = (headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (coding === "identity") return stream;
  if (coding === "gzip" || coding === "x-gzip") {
    return stream.pipeThrough(
      new DecompressionStream("gzip") as ReadableWritablePair<Uint8Array, Uint8Array>,
    );
  }
  throw new TypeError(`the server sent a body encoded as ${coding}, which was not asked for`);
}

/** Lines and byte runs over a stream of chunks. */
class ByteReader {
  private buffer = new Uint8Array(0);

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** One CRLF-terminated line (without it); one longer than a whole head may be is refused. */
  async line(): Promise<string> {
    for (let searched = 0; ; ) {
      const end = this.buffer.indexOf(10, searched);
      if (end > 0 && this.buffer[end - 1] === 13) {
        const text = decoder.decode(this.buffer.subarray(0, end - 1));
        this.buffer = this.buffer.subarray(end + 1);
        return text;
      }
      if (end >= 0) throw new TypeError("the server ended a line without CRLF");
      searched = this.buffer.byteLength;
      if (searched > MAX_HEAD_BYTES) throw new TypeError("the server sent too long a line");
      if (!(await this.fill())) throw new TypeError("the connection closed before the answer was complete");
    }
  }

  /** Up to `max` bytes, whatever has arrived; null once the server closed and nothing is left. */
  async some(max: number): Promise<Uint8Array | null> {
    if (this.buffer.byteLength === 0 && !(await this.fill())) return null;
    const size = Math.min(max, this.buffer.byteLength);
    const bytes = this.buffer.slice(0, size);
    this.buffer = this.buffer.subarray(size);
    return bytes;
  }

  private async fill(): Promise<boolean> {
    const { done, value } = await this.reader.read();
    if (done) return false;
    const joined = new Uint8Array(this.buffer.byteLength + value.byteLength);
    joined.set(this.buffer);
    joined.set(value, this.buffer.byteLength);
    this.buffer = joined;
    return true;
  }
}
