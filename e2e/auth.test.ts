import { MESSAGES } from "@stockbridge/shared";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newIdentity, openSession, type Session } from "./support/browser.ts";
import { browserPerFile } from "./support/fixtures.ts";
import { apiClient, expectPath, expectToast, storedToken, toastsShown } from "./support/session.ts";

const browser = browserPerFile();

/** Runs a test body in its own context, closed afterwards even when the body fails. */
async function withSession(body: (session: Session) => Promise<void>): Promise<void> {
  const session = await openSession(browser());
  try {
    await body(session);
  } finally {
    await session.close();
  }
}

/** Records every API request the page sends, to prove a rejected form sent nothing. */
function recordApiRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/"))
      seen.push(`${request.method()} ${request.url()}`);
  });
  return seen;
}

/** The error text shown under a field (tied to the control by aria-describedby). */
async function fieldError(page: Page, label: string): Promise<string> {
  const control = page.getByLabel(label, { exact: true });
  const ids = (await control.getAttribute("aria-describedby")) ?? "";
  const errorId = ids.split(" ").find((id) => id.endsWith("-error"));
  if (!errorId) return "";
  return (await page.locator(`[id="${errorId}"]`).textContent()) ?? "";
}

async function expectFieldError(page: Page, label: string, message: string): Promise<void> {
  await expect.poll(() => fieldError(page, label)).toBe(message);
  await expect(page.getByLabel(label, { exact: true }).getAttribute("aria-invalid")).resolves.toBe("true");
}

async function expectNoFieldError(page: Page, label: string): Promise<void> {
  await expect.poll(() => fieldError(page, label)).toBe("");
}

describe("sign-up, sign-out and sign-in", () => {
  it("registers, shows an empty checklist, logs out, and signs in back to the page it came from", async () => {
    await withSession(async ({ page }) => {
      const identity = newIdentity("Robin Register");
      await page.goto("/register");
      await page.getByRole("heading", { name: "Create an account" }).waitFor();
      await page.getByLabel("Full Name").fill(identity.name);
      await page.getByLabel("Email Address").fill(identity.email);
      await page.getByLabel("Password", { exact: true }).fill(identity.password);
      await page.getByLabel("Confirm Password").fill(identity.password);
      await page.getByRole("button", { name: "Create Account" }).click();

      await expectToast(page, MESSAGES.auth.registrationSuccess);
      await expectPath(page, "/dashboard");
      await page.getByText("0 of 5 done").waitFor();
      const steps = page.getByRole("listitem").filter({ hasText: "(not done)" });
      await expect.poll(() => steps.count()).toBe(5);
      expect(await storedToken(page)).toBeTruthy();

      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("menuitem", { name: "Logout" }).click();
      await expectPath(page, "/login");
      expect(await storedToken(page)).toBeNull();

      await page.goto("/profile");
      await expectPath(page, "/login");
      expect(new URL(page.url()).searchParams.get("redirect")).toBe("/profile");
      await page.getByLabel("Email").fill(identity.email);
      await page.getByLabel("Password", { exact: true }).fill(identity.password);
      await page.getByLabel("Password", { exact: true }).press("Enter");

      await expectToast(page, MESSAGES.auth.loginSuccess);
      await expectPath(page, "/profile");
      await page.getByText("Coming soon....").waitFor();
      expect(await storedToken(page)).toBeTruthy();
    });
  });

  it("shows the server's message when the password is wrong or the email is taken", async () => {
    await withSession(async ({ page, appUrl }) => {
      const identity = newIdentity();
      await apiClient(appUrl).call("register", { body: identity });
      const expected = await apiClient(appUrl)
        .call("login", { body: { email: identity.email, password: "Wrong0pass" } })
        .then(
          () => "",
          (error: Error) => error.message,
        );
      expect(expected).not.toBe("");

      await page.goto("/login");
      await page.getByLabel("Email").fill(identity.email);
      await page.getByLabel("Password", { exact: true }).fill("Wrong0pass");
      await page.getByRole("button", { name: "Sign In" }).click();
      await expectToast(page, expected);
      await expectPath(page, "/login");
      // Typed input survives the failure.
      await expect(page.getByLabel("Email").inputValue()).resolves.toBe(identity.email);
      expect(await storedToken(page)).toBeNull();

      // Registering the same email again: the server's reason, and the form keeps its values.
      const taken = await apiClient(appUrl)
        .call("register", { body: identity })
        .then(
          () => "",
          (error: Error) => error.message,
        );
      expect(taken).not.toBe("");
      await page.getByRole("link", { name: "Don't have an account? Sign up" }).click();
      await page.getByLabel("Full Name").fill(identity.name);
      await page.getByLabel("Email Address").fill(identity.email);
      await page.getByLabel("Password", { exact: true }).fill(identity.password);
      await page.getByLabel("Confirm Password").fill(identity.password);
      await page.getByRole("button", { name: "Create Account" }).click();
      await expectToast(page, taken);
      await expectPath(page, "/register");
      await expect(page.getByLabel("Full Name").inputValue()).resolves.toBe(identity.name);
    });
  });
});

describe("login validation", () => {
  it("checks each field when typed or left, and on submit toasts and sends nothing", async () => {
    await withSession(async ({ page }) => {
      await page.goto("/login");
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      const requests = recordApiRequests(page);

      // Nothing shows before a field is touched; leaving a field empty shows its error.
      await expectNoFieldError(page, "Email");
      await page.getByLabel("Email").focus();
      await page.getByLabel("Password", { exact: true }).focus();
      await expectFieldError(page, "Email", "Email is required");
      await expectNoFieldError(page, "Password");
      await page.getByRole("button", { name: "Sign In" }).click();
      await expectToast(page, MESSAGES.auth.fixValidationErrors);
      await expectFieldError(page, "Email", "Email is required");
      await expectFieldError(page, "Password", "Password is required");

      await page.getByLabel("Email").fill("not-an-email");
      await expectFieldError(page, "Email", "Invalid email address");
      await page.getByLabel("Email").fill("someone@example.com");
      await expectNoFieldError(page, "Email");
      await page.getByLabel("Password", { exact: true }).fill("x");
      await expectNoFieldError(page, "Password");
      await page.getByLabel("Password", { exact: true }).fill("");
      await expectFieldError(page, "Password", "Password is required");

      const shown = await closeToasts(page);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expectToast(page, MESSAGES.auth.fixValidationErrors, { after: shown });
      expect(requests).toEqual([]);
    });
  });
});

describe("register validation", () => {
  it("checks name, email, the five password rules and the confirmation, live and on submit", async () => {
    await withSession(async ({ page }) => {
      await page.goto("/register");
      await page.getByRole("heading", { name: "Create an account" }).waitFor();
      const requests = recordApiRequests(page);

      await page.getByRole("button", { name: "Create Account" }).click();
      await expectToast(page, MESSAGES.auth.fixValidationErrors);
      await expectFieldError(page, "Full Name", "Name is required");
      await expectFieldError(page, "Email Address", "Email is required");
      await expectFieldError(page, "Password", "Password is required");
      await expectFieldError(page, "Confirm Password", "Please confirm your password");

      const name = page.getByLabel("Full Name");
      await name.fill("Robin 2");
      await expectFieldError(page, "Full Name", "Name should only contain letters and spaces");
      await name.fill("Robin Example");
      await expectNoFieldError(page, "Full Name");

      await page.getByLabel("Email Address").fill("robin@");
      await expectFieldError(page, "Email Address", "Invalid email address");
      await page.getByLabel("Email Address").fill("robin@example.com");
      await expectNoFieldError(page, "Email Address");

      const password = page.getByLabel("Password", { exact: true });
      const rules: Array<[string, string]> = [
        ["", "Password is required"],
        ["Ab1", "Password must be at least 6 characters long"],
        ["ABCDEF1", "Password must contain at least one lowercase letter"],
        ["abcdef1", "Password must contain at least one uppercase letter"],
        ["Abcdefg", "Password must contain at least one number"],
      ];
      for (const [value, message] of rules) {
        await password.fill(value);
        await expectFieldError(page, "Password", message);
      }
      await password.fill("Passw0rd1");
      await expectNoFieldError(page, "Password");

      const confirm = page.getByLabel("Confirm Password");
      await confirm.fill("Passw0rd2");
      await expectFieldError(page, "Confirm Password", "Passwords do not match");
      await confirm.fill("Passw0rd1");
      await expectNoFieldError(page, "Confirm Password");
      // Changing the password re-checks the confirmation, and changing it back clears the error.
      await password.fill("Passw0rd9");
      await expectFieldError(page, "Confirm Password", "Passwords do not match");

      const shown = await closeToasts(page);
      await page.getByRole("button", { name: "Create Account" }).click();
      await expectToast(page, MESSAGES.auth.fixValidationErrors, { after: shown });
      expect(requests).toEqual([]);

      await password.fill("Passw0rd1");
      await expectNoFieldError(page, "Confirm Password");
    });
  });
});

/**
 * Closes the toasts on screen and answers how many the page has shown, so the next check asks for
 * a toast shown after this point (an open toast with the same id would only be updated in place).
 */
async function closeToasts(page: Page): Promise<number> {
  const toasts = page.locator("[data-sonner-toast]");
  for (const close of await toasts.getByRole("button", { name: "Close toast" }).all()) {
    // One may leave by itself meanwhile: what matters is that none is left, awaited below.
    await close.click({ timeout: 2_000 }).catch(() => {});
  }
  await toasts.first().waitFor({ state: "detached" });
  return (await toastsShown(page)).length;
}
