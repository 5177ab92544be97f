import { describe, expect, it } from "vitest";
import { openSession } from "./support/browser.ts";
import { browserPerFile } from "./support/fixtures.ts";

const browser = browserPerFile();

describe("the API reference at /api/docs", () => {
  it("renders every tag of the document under its own strict policy, loading nothing from elsewhere", async () => {
    const session = await openSession(browser());
    const { page, appUrl } = session;
    try {
      const origin = new URL(appUrl).origin;
      const elsewhere: string[] = [];
      const refused: string[] = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.protocol !== "data:" && url.origin !== origin) elsewhere.push(request.url());
      });
      page.on("console", (message) => {
        if (message.text().includes("Content Security Policy")) refused.push(message.text());
      });

      await page.goto("/api/docs");
      await page.getByRole("heading", { name: /Stockbridge API/ }).waitFor();
      const document = await (await fetch(`${appUrl}/api/openapi.json`)).json();
      for (const tag of document.tags as { name: string }[]) {
        await page.locator(`[data-tag="${tag.name}"]`).first().waitFor();
      }
      await page.getByText("Follow a job's progress").first().waitFor();

      expect(refused).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
