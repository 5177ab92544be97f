import { validateAcumaticaForm, validateShopifyForm } from "@stockbridge/shared";
import { describe, expect, it } from "vitest";
import {
  acumaticaFormFrom,
  acumaticaFormFromSandbox,
  acumaticaInput,
  currencyWarning,
  servedVersionNote,
  shopifyFormFrom,
  shopifyInput,
  shopifyVersion,
} from "./connection-form.ts";

const status = { isVerified: false, lastTestedAt: null, lastTestError: null };

describe("connection forms", () => {
  it("start empty with the spec's default versions when nothing is saved", () => {
    expect(acumaticaFormFrom(null)).toEqual({
      name: "",
      apiVersion: "23.200.001",
      instanceUri: "",
      endpointName: "",
      username: "",
      password: "",
      company: "",
      maxSessions: "2",
    });
    expect(shopifyFormFrom(null)).toEqual({
      name: "",
      apiVersion: "2025-04",
      storeName: "",
      accessToken: "",
    });
  });

  it("start from the saved connection with the secret blank, so saving keeps it", () => {
    const form = shopifyFormFrom({
      name: "Store",
      apiVersion: "2025-01",
      storeName: "demo",
      accessTokenSet: true,
      servedApiVersion: null,
      deprecationNotice: null,
      currencyCode: null,
      ...status,
    });
    expect(form).toEqual({ name: "Store", apiVersion: "2025-01", storeName: "demo", accessToken: "" });
    expect(validateShopifyForm(form, { accessTokenSaved: true })).toEqual({});
    expect(validateShopifyForm(form, { accessTokenSaved: false }).accessToken).toBe(
      "Access token is required",
    );
  });

  it("fill from the sandbox's demo connection with every field valid", () => {
    const form = acumaticaFormFromSandbox({
      name: "Sandbox ERP",
      instanceUri: "http://127.0.0.1:8100/acumatica",
      endpointName: "Default",
      apiVersion: "23.200.001",
      username: "admin",
      password: "Sandbox-Passw0rd",
      company: "StockbridgeDemo",
    });
    expect(validateAcumaticaForm(form, { passwordSaved: false })).toEqual({});
  });

  it("send trimmed text but the password exactly as typed", () => {
    const body = acumaticaInput({
      name: " ERP ",
      apiVersion: "24.200.001",
      instanceUri: " https://erp.example.com ",
      endpointName: " Default ",
      username: " admin ",
      password: " secret ",
      company: " Co ",
      maxSessions: " 3 ",
    });
    expect(body).toEqual({
      name: "ERP",
      apiVersion: "24.200.001",
      instanceUri: "https://erp.example.com",
      endpointName: "Default",
      username: "admin",
      password: " secret ",
      company: "Co",
      maxSessions: 3,
    });
    expect(
      shopifyInput({ name: "S", apiVersion: "2024-10", storeName: " demo ", accessToken: " t " }),
    ).toEqual({
      name: "S",
      apiVersion: "2024-10",
      storeName: "demo",
      accessToken: "t",
    });
  });

  it("read a version the select does not offer as the default", () => {
    expect(shopifyVersion("2023-01")).toBe("2025-04");
    expect(shopifyVersion("2024-07")).toBe("2024-07");
  });
});

describe("servedVersionNote", () => {
  it("is absent before a successful test", () => {
    expect(servedVersionNote({ apiVersion: "2025-04", servedApiVersion: null })).toBeNull();
  });

  it("says when Shopify fell forward from an expired version", () => {
    expect(servedVersionNote({ apiVersion: "2025-04", servedApiVersion: "2025-10" })).toEqual({
      served: "2025-10",
      fellForward: true,
    });
    expect(servedVersionNote({ apiVersion: "2025-04", servedApiVersion: "2025-04" })).toEqual({
      served: "2025-04",
      fellForward: false,
    });
  });
});

describe("the currency warning", () => {
  it("names both currencies when the tested store and ERP differ, and says nothing otherwise", () => {
    expect(currencyWarning({ baseCurrency: "USD" }, { currencyCode: "EUR" })).toBe(
      "Prices will not sync: the Shopify store sells in EUR but Acumatica prices are in USD. Quantities still sync.",
    );
    expect(currencyWarning({ baseCurrency: "USD" }, { currencyCode: "USD" })).toBeNull();
    expect(currencyWarning({ baseCurrency: null }, { currencyCode: "EUR" })).toBeNull();
    expect(currencyWarning(null, { currencyCode: "EUR" })).toBeNull();
  });
});
