import { describe, expect, it } from "vitest";
import {
  canSubmitManualMapping,
  matchesTypedConfirmation,
  validateAcumaticaForm,
  validateConfirmPassword,
  validateEmail,
  validateLoginForm,
  validateName,
  validateNewPassword,
  validatePriceMapping,
  validateRegisterForm,
  validateSafetyLimitsForm,
  validateShopifyForm,
  validateSyncOptions,
} from "./validation.ts";

describe("login form", () => {
  it("requires an email", () => expect(validateEmail("")).toBe("Email is required"));
  it("requires a standard email pattern", () => {
    expect(validateEmail("ann@example")).toBe("Invalid email address");
    expect(validateEmail("ann example.com")).toBe("Invalid email address");
    expect(validateEmail("ann@example.com")).toBeUndefined();
  });
  it("requires a password", () => {
    expect(validateLoginForm({ email: "a@b.co", password: "" })).toEqual({
      password: "Password is required",
    });
  });
  it("passes a complete form", () =>
    expect(validateLoginForm({ email: "a@b.co", password: "x" })).toEqual({}));
});

describe("register form", () => {
  it("requires a name of letters and spaces only", () => {
    expect(validateName("")).toBe("Name is required");
    expect(validateName("Ann-Marie")).toBe("Name should only contain letters and spaces");
    expect(validateName("Ann 2")).toBe("Name should only contain letters and spaces");
    expect(validateName("Ann Marie")).toBeUndefined();
    expect(validateName("Zoë Ñúñez")).toBeUndefined();
  });

  it.each([
    ["", "Password is required"],
    ["Ab1", "Password must be at least 6 characters long"],
    ["ABCDEF1", "Password must contain at least one lowercase letter"],
    ["abcdef1", "Password must contain at least one uppercase letter"],
    ["Abcdefg", "Password must contain at least one number"],
  ])("rejects the password %j with %j", (password, message) => {
    expect(validateNewPassword(password)).toBe(message);
  });

  it("accepts a password meeting every rule", () => expect(validateNewPassword("Abcdef1")).toBeUndefined());

  it("requires the confirmation to be present and equal", () => {
    expect(validateConfirmPassword("", "Abcdef1")).toBe("Please confirm your password");
    expect(validateConfirmPassword("Abcdef2", "Abcdef1")).toBe("Passwords do not match");
    expect(validateConfirmPassword("Abcdef1", "Abcdef1")).toBeUndefined();
  });

  it("reports each field's first error", () => {
    expect(validateRegisterForm({ name: "", email: "x", password: "abc", confirmPassword: "" })).toEqual({
      name: "Name is required",
      email: "Invalid email address",
      password: "Password must be at least 6 characters long",
      confirmPassword: "Please confirm your password",
    });
  });
});

describe("connection forms", () => {
  const acumatica = {
    name: "ERP",
    apiVersion: "23.200.001",
    instanceUri: "https://erp.example.com",
    endpointName: "Default",
    username: "admin",
    password: "secret",
    company: "Company",
    maxSessions: "2",
  };

  it("requires every field", () => {
    const errors = validateAcumaticaForm({ ...acumatica, name: "", company: " " }, { passwordSaved: false });
    expect(errors).toEqual({ name: "Name is required", company: "Company is required" });
  });

  it("allows a blank password only when one is saved", () => {
    expect(validateAcumaticaForm({ ...acumatica, password: "" }, { passwordSaved: false })).toEqual({
      password: "Password is required",
    });
    expect(validateAcumaticaForm({ ...acumatica, password: "" }, { passwordSaved: true })).toEqual({});
  });

  it("refuses control characters in each text field, the message naming it (tab, DEL and C1 too)", () => {
    const hostile = {
      ...acumatica,
      name: "a\u0000b",
      username: "ad\tmin",
      company: "Co\u0085",
      endpointName: "x\u007f",
    };
    expect(validateAcumaticaForm(hostile, { passwordSaved: true })).toEqual({
      name: "Name must not contain control characters",
      username: "Username must not contain control characters",
      company: "Company must not contain control characters",
      endpointName: "Endpoint name must not contain control characters",
    });
    const shopify = { name: "Store\u001b", apiVersion: "2025-04", storeName: "de\u0000mo", accessToken: "t" };
    expect(validateShopifyForm(shopify, { accessTokenSaved: true })).toEqual({
      name: "Name must not contain control characters",
      storeName: "Store name must not contain control characters",
    });
    // Outer whitespace is trimmed first; accents, other scripts and emoji are letters like any other.
    expect(
      validateAcumaticaForm({ ...acumatica, name: " Müller 東京 📦\n" }, { passwordSaved: true }),
    ).toEqual({});
    expect(validateEmail("ann\u0000@example.com")).toBe("Email must not contain control characters");
  });

  it("takes max sessions as a whole number from 1 to 20, naming the field and the rule", () => {
    for (const maxSessions of ["1", " 20 "])
      expect(validateAcumaticaForm({ ...acumatica, maxSessions }, { passwordSaved: true })).toEqual({});
    for (const maxSessions of ["0", "21", "1.5", "two", ""])
      expect(validateAcumaticaForm({ ...acumatica, maxSessions }, { passwordSaved: true })).toEqual({
        maxSessions: "Max sessions must be a whole number from 1 to 20",
      });
  });

  it("allows only the listed API versions", () => {
    expect(
      validateAcumaticaForm({ ...acumatica, apiVersion: "17.200.001" }, { passwordSaved: true }).apiVersion,
    ).toMatch(/one of 18.200.001/);
    const shopify = { name: "Store", apiVersion: "2023-01", storeName: "demo", accessToken: "t" };
    expect(validateShopifyForm(shopify, { accessTokenSaved: true }).apiVersion).toMatch(
      /one of 2024-07, 2024-10, 2025-01, 2025-04/,
    );
  });
});

describe("settings, sync options, manual mapping, typed confirmation", () => {
  it("needs at least one price field", () => {
    expect(validatePriceMapping({ syncPrice: false, syncMsrp: false })).toBe(
      "At least one price field must be synced",
    );
    expect(validatePriceMapping({ syncPrice: false, syncMsrp: true })).toBeUndefined();
  });
  it("needs at least one sync option", () => {
    expect(validateSyncOptions({ price: false, quantity: false })).toBe(
      "Please select at least one sync option",
    );
    expect(validateSyncOptions({ price: true, quantity: false })).toBeUndefined();
  });
  it("needs both products picked for a manual mapping", () => {
    expect(canSubmitManualMapping({ shopifyVariantId: "1", acumaticaProductId: null })).toBe(false);
    expect(canSubmitManualMapping({ shopifyVariantId: "1", acumaticaProductId: "A" })).toBe(true);
  });
  it("matches a typed confirmation exactly", () => {
    expect(matchesTypedConfirmation("Nightly sync", "Nightly sync")).toBe(true);
    expect(matchesTypedConfirmation("nightly sync", "Nightly sync")).toBe(false);
    expect(matchesTypedConfirmation("Nightly sync ", "Nightly sync")).toBe(false);
  });
});

describe("safety limits form", () => {
  it("takes whole percentages within bounds, 0 included", () => {
    expect(validateSafetyLimitsForm({ maxPriceChangePercent: "0", maxZeroedPercent: "100" })).toEqual({});
    expect(validateSafetyLimitsForm({ maxPriceChangePercent: " 1000 ", maxZeroedPercent: "20" })).toEqual({});
  });
  it("says the rule under each field that breaks it: blank, fractional, negative, over the bound", () => {
    const price = "Enter a whole number from 0 to 1000 (0 turns the limit off)";
    const zeroed = "Enter a whole number from 0 to 100 (0 turns the limit off)";
    expect(validateSafetyLimitsForm({ maxPriceChangePercent: "", maxZeroedPercent: "101" })).toEqual({
      maxPriceChangePercent: price,
      maxZeroedPercent: zeroed,
    });
    expect(validateSafetyLimitsForm({ maxPriceChangePercent: "12.5", maxZeroedPercent: "-1" })).toEqual({
      maxPriceChangePercent: price,
      maxZeroedPercent: zeroed,
    });
    expect(validateSafetyLimitsForm({ maxPriceChangePercent: "1001", maxZeroedPercent: "5" })).toEqual({
      maxPriceChangePercent: price,
    });
  });
});
