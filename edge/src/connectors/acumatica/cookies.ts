/**
 * The session's cookie jar: Acumatica's credential is the `.ASPXAUTH` and `ASP.NET_SessionId`
 * cookies set at login (each sent twice in real recordings), sent back on every call; logout
 * answers them expired.
 */

/** Keeps what `Set-Cookie` sets; an emptied or expired cookie is dropped. */
export function remember(response: Response, jar: Map<string, string>) {
  const headers = response.headers as Headers & { getSetCookie?: () => string[] };
  const lines = headers.getSetCookie?.() ?? [];
  for (const line of lines) {
    const [pair = "", ...attributes] = line.split(";");
    const index = pair.indexOf("=");
    if (index <= 0) continue;
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    const expires = attributes.map((attribute) => /^\s*expires=(.*)$/i.exec(attribute)?.[1]).find(Boolean);
    // ASP.NET writes `Tue, 12-Oct-1999 00:00:00 GMT`; dashes read as spaces for Date.parse.
    const expired = expires !== undefined && Date.parse(expires.replace(/-/g, " ")) < Date.now();
    if (!value || expired) jar.delete(name);
    else jar.set(name, value);
  }
}

export function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}
