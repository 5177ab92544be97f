import { UpstreamError } from "../../errors.ts";

export type AcumaticaFailure =
  | "invalid-credentials"
  | "unknown-company"
  | "licence-limit"
  | "unknown-endpoint"
  | "unreachable"
  | "refused"
  | "not-found"
  | "rejected"
  | "unavailable"
  | "protocol";

/** An Acumatica failure whose message names the cause; `kind` lets callers branch on it. */
export class AcumaticaError extends UpstreamError {
  constructor(
    message: string,
    readonly kind: AcumaticaFailure,
    /** The entity Acumatica echoed with field errors (422), for callers that report per field. */
    readonly body: unknown = null,
  ) {
    super("Acumatica", message);
  }
}

export interface ErrorBody {
  message: string;
  exceptionMessage: string;
  exceptionType: string;
  html: boolean;
  text: string;
}

/** Reads Acumatica's error answer: Web API JSON (`message`, `exceptionMessage`...) or an HTML page. */
export async function readErrorBody(response: Response): Promise<ErrorBody> {
  const text = await response.text().catch(() => "");
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const field = (name: string) => (typeof json[name] === "string" ? (json[name] as string) : "");
    return {
      message: field("message"),
      exceptionMessage: field("exceptionMessage"),
      exceptionType: field("exceptionType"),
      html: false,
      text,
    };
  } catch {
    const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1]?.trim() ?? "";
    return { message: title, exceptionMessage: "", exceptionType: "", html: /<html/i.test(text), text };
  }
}

/** Database deadlocks and timeouts, IIS error pages: worth another try. */
export function isTransient(status: number, body: ErrorBody): boolean {
  if (status === 502 || status === 503 || status === 504) return true;
  if (status !== 500) return false;
  return body.html || /SqlException|Timeout|deadlock/i.test(`${body.exceptionType} ${body.exceptionMessage}`);
}

export function isLoginLimit(status: number, body: ErrorBody): boolean {
  return (
    /API Login Limit/i.test(`${body.message} ${body.text.slice(0, 2_000)}`) || (status === 429 && body.html)
  );
}

/** Why a login was refused, in the words the connection card shows. */
export function loginFailure(status: number, body: ErrorBody, company: string): AcumaticaError {
  const said = body.exceptionMessage || body.message;
  if (isLoginLimit(status, body)) {
    return new AcumaticaError(
      "licence limit reached: every API user seat of the Acumatica licence is in use (sign out other integrations, or wait up to 10 minutes for idle sessions to close)",
      "licence-limit",
    );
  }
  if (/invalid credentials/i.test(said))
    return new AcumaticaError("invalid credentials", "invalid-credentials");
  if (/UndefinedCompany/i.test(body.exceptionType) || /company ID cannot be determined/i.test(said)) {
    return new AcumaticaError(
      `unknown company "${company}" (the tenant's login name on this instance)`,
      "unknown-company",
    );
  }
  if (/change your password/i.test(said)) {
    return new AcumaticaError(
      "the password must be changed: sign in to Acumatica in a browser and set a new one",
      "invalid-credentials",
    );
  }
  if (/locked/i.test(said))
    return new AcumaticaError(`the user is locked out (${said})`, "invalid-credentials");
  if (status === 404)
    return new AcumaticaError(
      "no Acumatica instance answers at this address (HTTP 404 for /entity/auth/login)",
      "not-found",
    );
  return new AcumaticaError(`login failed (HTTP ${status}${said ? `: ${said}` : ""})`, "protocol");
}

/** A refused entity call, with Acumatica's own text. */
export function callFailure(status: number, body: ErrorBody, what: string): AcumaticaError {
  const said = body.exceptionMessage || body.message;
  if (status === 404)
    return new AcumaticaError(`${what} does not exist on this instance (HTTP 404)`, "not-found");
  if (status === 429) {
    return new AcumaticaError(
      `licence limit reached: Acumatica declined the request (${said || "too many requests"})`,
      "licence-limit",
    );
  }
  if (status === 403)
    return new AcumaticaError(`access denied to ${what} (HTTP 403${said ? `: ${said}` : ""})`, "rejected");
  return new AcumaticaError(
    `Acumatica refused ${what} (HTTP ${status}${said ? `: ${said}` : ""})`,
    status === 422 ? "rejected" : "protocol",
  );
}
