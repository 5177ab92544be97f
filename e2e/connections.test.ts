import { MESSAGES } from "@stockbridge/shared";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, withSignedInSession } from "./support/fixtures.ts";
import { expectToast, type SignedInSession, toastsShown } from "./support/session.ts";

const browser = browserPerFile();

/** A new user (registered through the API) on Settings > Connections in a fresh browser context. */
function onConnections(
  body: (page: Page, session: SignedInSession) => Promise<void>,
  options: { width?: number } = {},
): Promise<void> {
  return withSignedInSession(browser(), options, async (session) => {
    await session.page.goto("/settings");
    await session.page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
    await session.page.getByRole("tab", { name: "Connections" }).waitFor();
    await card(session.page, "Acumatica").waitFor();
    await body(session.page, session);
  });
}

function card(page: Page, system: "Acumatica" | "Shopify") {
  return page.getByRole("region", { name: `${system} connection` });
}

function field(page: Page, system: "Acumatica" | "Shopify", label: string) {
  return card(page, system).getByLabel(label, { exact: true });
}

async function useSandboxStore(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Use the sandbox store" }).click();
  await expect.poll(() => field(page, "Shopify", "Store Name").inputValue()).not.toBe("");
}

describe("Settings > Connections", () => {
  it("shows a message for every empty field on save and sends nothing", async () => {
    await onConnections(async (page) => {
      await card(page, "Acumatica").getByRole("button", { name: "Save Acumatica Settings" }).click();
      await expectToast(page, MESSAGES.auth.fixValidationErrors);
      const acumatica = card(page, "Acumatica");
      for (const message of [
        "Name is required",
        "Instance URL is required",
        "Endpoint name is required",
        "Username is required",
        "Password is required",
        "Company is required",
      ]) {
        await acumatica.getByText(message, { exact: true }).waitFor();
      }
      // The versions have defaults, so they never need a message.
      expect(await field(page, "Acumatica", "API Version").inputValue()).toBe("23.200.001");

      await card(page, "Shopify").getByRole("button", { name: "Save Shopify Settings" }).click();
      const shopify = card(page, "Shopify");
      for (const message of ["Name is required", "Store name is required", "Access token is required"]) {
        await shopify.getByText(message, { exact: true }).waitFor();
      }
      expect(await field(page, "Shopify", "API Version").inputValue()).toBe("2025-04");

      // Nothing was saved: the test buttons stay off and no success toast appeared.
      expect(await page.getByRole("button", { name: "Test Acumatica connection" }).isDisabled()).toBe(true);
      expect(await page.getByRole("button", { name: "Test Shopify connection" }).isDisabled()).toBe(true);
      expect((await toastsShown(page)).filter((text) => text.includes("updated successfully"))).toEqual([]);

      // Typing clears a field's message as soon as the field is valid.
      await field(page, "Shopify", "Name").fill("My store");
      await shopify.getByText("Name is required", { exact: true }).waitFor({ state: "detached" });
    });
  });

  it("fills both cards from the sandbox, saves and tests them, and shows the served version", async () => {
    await onConnections(async (page) => {
      // Side by side on a wide screen.
      const [acumaticaBox, shopifyBox] = await Promise.all([
        card(page, "Acumatica").boundingBox(),
        card(page, "Shopify").boundingBox(),
      ]);
      expect(acumaticaBox && shopifyBox && Math.abs(acumaticaBox.y - shopifyBox.y) < 2).toBe(true);

      await useSandboxStore(page);
      expect(await field(page, "Acumatica", "Instance URL").inputValue()).toBe(
        `${inject("sandboxUrl")}/acumatica`,
      );
      expect(await field(page, "Acumatica", "Endpoint Name").inputValue()).toBe("Default");
      expect(await field(page, "Acumatica", "Company").inputValue()).not.toBe("");
      expect(await field(page, "Acumatica", "Password").inputValue()).not.toBe("");
      expect(await field(page, "Shopify", "Access Token").inputValue()).toMatch(/^shpat_/);

      await card(page, "Acumatica").getByRole("button", { name: "Save Acumatica Settings" }).click();
      await expectToast(page, MESSAGES.connections.acumaticaUpdated);
      await card(page, "Shopify").getByRole("button", { name: "Save Shopify Settings" }).click();
      await expectToast(page, MESSAGES.connections.shopifyUpdated);

      // Saved secrets are never shown again; a blank field keeps them.
      await expect
        .poll(() => field(page, "Shopify", "Access Token").getAttribute("placeholder"))
        .toBe("Saved — leave blank to keep");
      expect(await field(page, "Shopify", "Access Token").inputValue()).toBe("");
      expect(await field(page, "Acumatica", "Password").getAttribute("placeholder")).toBe(
        "Saved — leave blank to keep",
      );
      expect(await card(page, "Shopify").getByText("Verified", { exact: true }).count()).toBe(0);

      // The lasting state first ('Verified'), then the toast from the record of those shown.
      await page.getByRole("button", { name: "Test Acumatica connection" }).click();
      await card(page, "Acumatica").getByText("Verified", { exact: true }).waitFor();
      await expectToast(page, MESSAGES.connections.acumaticaTestOk);

      await page.getByRole("button", { name: "Test Shopify connection" }).click();
      await card(page, "Shopify").getByText("Verified", { exact: true }).waitFor();
      await expectToast(page, MESSAGES.connections.shopifyTestOk);
      await card(page, "Shopify")
        .getByText(/^Shopify served \d{4}-\d{2}$/)
        .waitFor();

      // The dashboard's checklist sees both connections at once (the user was re-read).
      await page.getByRole("link", { name: "Dashboard" }).click();
      await page.getByText("Connect your Shopify store (done)").waitFor();
      await page.getByText("Connect Acumatica (done)").waitFor();
      await page.getByRole("link", { name: "Settings" }).first().click();
      await card(page, "Shopify").waitFor();

      // The verified connections survive a reload (they come from the server).
      await page.reload();
      await card(page, "Shopify").getByText("Verified", { exact: true }).waitFor();
      await card(page, "Acumatica").getByText("Verified", { exact: true }).waitFor();
      await card(page, "Shopify")
        .getByText(/^Shopify served /)
        .waitFor();
    });
  });

  it("saves the Acumatica card's Max Sessions with the connection, 2 unless changed, 1 to 20", async () => {
    await onConnections(async (page) => {
      await useSandboxStore(page);
      const maxSessions = field(page, "Acumatica", "Max Sessions");
      expect(await maxSessions.inputValue()).toBe("2");

      await maxSessions.fill("0");
      await card(page, "Acumatica").getByRole("button", { name: "Save Acumatica Settings" }).click();
      await expectToast(page, MESSAGES.auth.fixValidationErrors);
      await card(page, "Acumatica")
        .getByText("Max sessions must be a whole number from 1 to 20", { exact: true })
        .waitFor();

      await maxSessions.fill("3");
      await card(page, "Acumatica").getByRole("button", { name: "Save Acumatica Settings" }).click();
      await expectToast(page, MESSAGES.connections.acumaticaUpdated);
      await page.reload();
      await expect.poll(() => field(page, "Acumatica", "Max Sessions").inputValue()).toBe("3");
    });
  });

  it("fails the test of a wrong access token with the server's message and no check", async () => {
    await onConnections(async (page) => {
      await useSandboxStore(page);
      await field(page, "Shopify", "Access Token").fill("shpat_wrong_token_0000");
      await card(page, "Shopify").getByRole("button", { name: "Save Shopify Settings" }).click();
      await expectToast(page, MESSAGES.connections.shopifyUpdated);

      await page.getByRole("button", { name: "Test Shopify connection" }).click();
      const shopify = card(page, "Shopify");
      await shopify.getByText("Last test failed", { exact: true }).waitFor();
      await shopify.getByText("Test failed", { exact: true }).waitFor();
      // The server's message names the failure and Shopify's reason, not only the catalogue text.
      await expectToast(page, `${MESSAGES.connections.shopifyTestFailed}:`);
      expect(await shopify.getByText("Verified", { exact: true }).count()).toBe(0);
      expect(await shopify.getByText(/^Shopify served /).count()).toBe(0);
      // The other card's typed input is untouched by the failure.
      expect(await field(page, "Acumatica", "Username").inputValue()).not.toBe("");
    });
  });

  it("keeps the typed input when the server refuses a save", async () => {
    await onConnections(async (page) => {
      await field(page, "Shopify", "Name").fill("My store");
      await field(page, "Shopify", "Store Name").fill("not a store!");
      await field(page, "Shopify", "Access Token").fill("shpat_typed_0000");
      await field(page, "Shopify", "Access Token").press("Enter");
      await expectToast(page, "Store name must be your myshopify.com name");
      expect(await field(page, "Shopify", "Name").inputValue()).toBe("My store");
      expect(await field(page, "Shopify", "Store Name").inputValue()).toBe("not a store!");
      expect(await field(page, "Shopify", "Access Token").inputValue()).toBe("shpat_typed_0000");
      await card(page, "Shopify").getByText("Not saved", { exact: true }).waitFor();
    });
  });

  it("stacks the cards on a tablet", async () => {
    await onConnections(
      async (page) => {
        const [acumaticaBox, shopifyBox] = await Promise.all([
          card(page, "Acumatica").boundingBox(),
          card(page, "Shopify").boundingBox(),
        ]);
        expect(acumaticaBox && shopifyBox && shopifyBox.y >= acumaticaBox.y + acumaticaBox.height).toBe(true);
      },
      { width: 768 },
    );
  });
});
