import { ApiError, validateRegisterForm } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import { errorMessage, shouldRetryQuery, shouldToastQueryError } from "./errors.ts";
import { hasErrors, touchAll, visibleErrors } from "./form-state.ts";

describe("visibleErrors", () => {
  it("shows a field's error only once the field was touched", () => {
    const errors = validateRegisterForm({ name: "", email: "x", password: "", confirmPassword: "" });
    expect(visibleErrors(errors, {})).toEqual({});
    expect(visibleErrors(errors, { email: true })).toEqual({ email: "Invalid email address" });
  });

  it("shows every error after a submit touched all fields", () => {
    const errors = validateRegisterForm({ name: "", email: "", password: "", confirmPassword: "" });
    const shown = visibleErrors(errors, touchAll(["name", "email", "password", "confirmPassword"]));
    expect(shown).toEqual({
      name: "Name is required",
      email: "Email is required",
      password: "Password is required",
      confirmPassword: "Please confirm your password",
    });
    expect(hasErrors(shown)).toBe(true);
  });

  it("re-checks the confirmation when the password changes", () => {
    const touched = { password: true, confirmPassword: true };
    const before = visibleErrors(
      validateRegisterForm({ name: "Ada", email: "a@b.co", password: "Secret1", confirmPassword: "Secret1" }),
      touched,
    );
    const after = visibleErrors(
      validateRegisterForm({
        name: "Ada",
        email: "a@b.co",
        password: "Secret12",
        confirmPassword: "Secret1",
      }),
      touched,
    );
    expect(before.confirmPassword).toBeUndefined();
    expect(after.confirmPassword).toBe("Passwords do not match");
  });
});

describe("errorMessage", () => {
  it("prefers the server's message and falls back to the catalogue text", () => {
    expect(
      errorMessage(
        new ApiError("Email already registered", { status: 409, code: "CONFLICT" }),
        "Registration failed",
      ),
    ).toBe("Email already registered");
    expect(errorMessage("boom", "Registration failed")).toBe("Registration failed");
  });
});

describe("shouldToastQueryError", () => {
  it("stays quiet for a 401 and for an unreachable server while offline", () => {
    expect(
      shouldToastQueryError(new ApiError("x", { status: 401, code: "UNAUTHORIZED" }), { online: true }),
    ).toBe(false);
    expect(shouldToastQueryError(new ApiError("x", { status: 0, code: "NETWORK" }), { online: false })).toBe(
      false,
    );
    expect(shouldToastQueryError(new ApiError("x", { status: 0, code: "NETWORK" }), { online: true })).toBe(
      true,
    );
    expect(
      shouldToastQueryError(new ApiError("x", { status: 502, code: "UPSTREAM" }), { online: true }),
    ).toBe(true);
  });
});

describe("shouldRetryQuery", () => {
  it("retries network failures and 5xx at most twice, never a 4xx", () => {
    expect(shouldRetryQuery(0, new ApiError("x", { status: 0, code: "NETWORK" }))).toBe(true);
    expect(shouldRetryQuery(1, new ApiError("x", { status: 503, code: "HTTP_503" }))).toBe(true);
    expect(shouldRetryQuery(2, new ApiError("x", { status: 503, code: "HTTP_503" }))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError("x", { status: 403, code: "FORBIDDEN" }))).toBe(false);
  });
});
