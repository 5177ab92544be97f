/**
 * The demo connection the sandbox accepts. The sandbox seeds its store and ERP with these, and the
 * edge (in sandbox mode only) hands them out at `GET /api/sandbox`, so nobody needs to read docs to
 * connect. They open nothing outside the sandbox.
 */
export const SANDBOX_DEMO = {
  shopify: {
    name: "Sandbox store",
    storeName: "stockbridge-demo",
    accessToken: "shpat_sandbox_demo_0123456789abcdef",
    apiVersion: "2025-04",
  },
  acumatica: {
    name: "Sandbox ERP",
    /** Appended to the sandbox origin: `{sandbox}/acumatica`. */
    instancePath: "/acumatica",
    endpointName: "Default",
    apiVersion: "23.200.001",
    username: "admin",
    password: "Sandbox-Passw0rd",
    company: "StockbridgeDemo",
  },
} as const;
