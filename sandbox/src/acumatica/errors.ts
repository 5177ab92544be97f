import type { Json } from "./json.ts";

/**
 * Acumatica's failure bodies (acumatica.md §1.1, §5): ASP.NET Web API `HttpError` JSON for most
 * things, HTTP 500 even for bad credentials, an HTML page for the API login limit.
 */
export class AcumaticaError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 405 | 411 | 412 | 422 | 429 | 500 | 503,
    readonly body: Json,
    readonly html?: string,
  ) {
    super(typeof body === "object" && body !== null && "message" in body ? String(body.message) : "error");
  }
}

const WEB_API_TRACE =
  "   at System.Web.Http.Controllers.ReflectedHttpActionDescriptor.ExecuteAsync(HttpControllerContext controllerContext, IDictionary`2 arguments, CancellationToken cancellationToken)\r\n" +
  "   at System.Web.Http.Dispatcher.HttpControllerDispatcher.<SendAsync>d__15.MoveNext()";

/** `{"message":"An error has occurred.","exceptionMessage":...}` with HTTP 500. */
export function serverError(exceptionMessage: string, exceptionType: string, trace = WEB_API_TRACE) {
  return new AcumaticaError(500, {
    message: "An error has occurred.",
    exceptionMessage,
    exceptionType,
    stackTrace: trace,
  });
}

export function invalidCredentials() {
  return serverError(
    "Error: Invalid credentials. Please try again.",
    "PX.Data.PXException",
    "   at PX.Data.PXLogin.PX.Data.IPXLogin.LoginUser(String& userName, String password)\r\n" +
      "   at PX.Api.Services.LoginService.Login(String login, String password, String company, String branch, String locale, String prefix)\r\n" +
      "   at PX.Api.ContractBased.WebApi.Controllers.AuthController.Login(Credentials credentials)",
  );
}

export function undefinedCompany() {
  return serverError(
    "A proper company ID cannot be determined for the request.",
    "PX.Data.PXUndefinedCompanyException",
    "   at PX.Data.PXDatabaseProviderBase.getCompanyID(String tableName, companySetting& setting)\r\n" +
      "   at PX.Api.ContractBased.WebApi.Controllers.AuthController.Login(Credentials credentials)",
  );
}

export function noEntity() {
  return serverError(
    "No entity satisfies the condition.",
    "PX.Api.ContractBased.NoEntitySatisfiesTheConditionException",
  );
}

/** Bad query options and bodies: Web API model-state errors. */
export function invalidRequest(key: string, message: string) {
  return new AcumaticaError(400, { message: "The request is invalid.", modelState: { [key]: [message] } });
}

export function notLoggedIn() {
  return new AcumaticaError(401, { message: "You are not logged in." });
}

/** What ASP.NET Web API answers when no route matches (unknown endpoint, version or entity). */
export function noResource(url: string) {
  return new AcumaticaError(404, {
    message: `No HTTP resource was found that matches the request URI '${url}'.`,
  });
}

export function methodNotAllowed(method: string) {
  return new AcumaticaError(405, {
    message: `The requested resource does not support http method '${method}'.`,
  });
}

/** IIS refuses a POST/PUT that declares no body length (curl's bare `-X POST`). */
export function lengthRequired() {
  return new AcumaticaError(
    411,
    null,
    "<!DOCTYPE html><html><head><title>Length Required</title></head><body><h2>Length Required</h2><hr><p>HTTP Error 411. The request must be chunked or have a content length.</p></body></html>",
  );
}

export function preconditionFailed(message: string) {
  return new AcumaticaError(412, { message });
}

/** Seats used up: the body is an HTML page titled "API Login Limit" (what clients look for). */
export function apiLoginLimit(seats: number) {
  const html =
    "<!DOCTYPE html><html><head><title>API Login Limit</title></head><body>" +
    `<h1>API Login Limit</h1><p>You have reached the limit of ${seats} concurrent API logins allowed by your license. ` +
    "Sign out of existing API sessions, or wait until they expire, and try again.</p></body></html>";
  return new AcumaticaError(429, null, html);
}

/** The licence queue declined the request (more than 20 queued, or queued over 10 minutes). */
export function requestDeclined(reason: string) {
  return new AcumaticaError(429, {
    message: `The request has been declined by the license limits: ${reason}`,
  });
}
