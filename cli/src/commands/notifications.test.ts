import { describe, expect, inject, it } from "vitest";
import { setShopifyPrice, waitForJob } from "../../../e2e/support/catalog-setup.ts";
import { cliEnv, runCli } from "../../testing/cli.ts";
import { jumpPrice, mappingOf, PRICE_JUMP_SKUS } from "../../testing/price-jump.ts";
import { newMappedSubscriber, newUser } from "../../testing/users.ts";

describe("notifications", () => {
  it("lists a held run's alert, marks it read, and lists the email it sent", async () => {
    const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
    const user = await newMappedSubscriber(appUrl, sandboxUrl);
    const env = { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" };

    const none = await runCli(["notifications", "list"], { env });
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("No notifications.");

    expect((await runCli(["settings", "set", "--on-held"], { env })).code).toBe(0);
    await user.api.call("savePriceMapping", { body: { syncPrice: true, syncMsrp: false } });
    const mapping = await mappingOf(user.api, PRICE_JUMP_SKUS.notifications);
    const { erpPrice } = await jumpPrice(user.api, sandboxUrl, mapping);
    let historyId: string | undefined;
    try {
      const { job } = await user.api.call("syncMappings", {
        body: { mappingIds: [mapping._id], syncOptions: { price: true, quantity: false } },
      });
      historyId = ((await waitForJob(user.api, job)).result as { historyId?: string }).historyId;
    } finally {
      // The sandbox is shared: leave the variant at the ERP's price, as a sync would.
      await setShopifyPrice(user.api, sandboxUrl, {
        variantId: mapping.shopifyDetails.variantId,
        price: erpPrice,
      });
    }

    const listed = await runCli(["notifications", "list"], { env });
    expect(listed.code).toBe(0);
    const row = listed.stdout.split("\n").find((line) => line.includes(" held "));
    expect(row).toContain("unread");
    expect(row).toContain(historyId);
    expect(listed.stdout).toContain("1 unread notification.");
    const json = JSON.parse((await runCli(["notifications", "list", "--all", "--json"], { env })).stdout);
    expect(json).toMatchObject({ unread: 1, notifications: [{ kind: "held", historyId, readAt: null }] });
    const id: string = json.notifications[0]._id;

    const read = await runCli(["notifications", "read", id, id, "--json"], { env });
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({
      unread: 0,
      notifications: [{ _id: id, readAt: expect.any(String) }],
    });
    const readAll = await runCli(["notifications", "read-all"], { env });
    expect(readAll.code).toBe(0);
    expect(readAll.stdout).toContain("No unread notifications.");
    expect(JSON.parse((await runCli(["notifications", "read-all", "--json"], { env })).stdout)).toEqual({
      unread: 0,
    });

    const deliveries = await runCli(["notifications", "deliveries"], { env });
    expect(deliveries.code).toBe(0);
    const email = deliveries.stdout.split("\n").find((line) => line.includes(" email "));
    expect(email).toContain(user.email);
    const { deliveries: rows } = JSON.parse(
      (await runCli(["notifications", "deliveries", "--json"], { env })).stdout,
    );
    expect(rows).toEqual([
      expect.objectContaining({ notificationId: id, channel: "email", target: user.email }),
    ]);
  });

  it("exits 1 with the server's NOT_FOUND for a notification that is not the user's", async () => {
    const appUrl = inject("appUrl");
    const user = await newUser(appUrl);
    const env = cliEnv(appUrl, { token: user.token });
    const unknown = await runCli(["notifications", "read", "not-mine", "--json"], { env });
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr).error.code).toBe("NOT_FOUND");
  });
});
