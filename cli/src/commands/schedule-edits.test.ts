import { describe, expect, inject, it } from "vitest";
import { subscribeThroughCheckout } from "../../../e2e/support/subscribe.ts";
import { cliEnv, runCli } from "../../testing/cli.ts";
import { newUser } from "../../testing/users.ts";

async function subscriber() {
  const [appUrl, sandboxUrl] = [inject("appUrl"), inject("sandboxUrl")];
  const user = await newUser(appUrl);
  await subscribeThroughCheckout(user.api, sandboxUrl);
  return { user, env: { ...cliEnv(appUrl, { token: user.token }), NO_COLOR: "1" } };
}

describe("schedules create, edit, delete", () => {
  it("creates a daily full sync, edits its time, turns it off and on, and deletes it", async () => {
    const { user, env } = await subscriber();
    const created = await runCli(
      [
        "schedules",
        "create",
        "--name",
        "Nightly",
        "--type",
        "daily",
        "--time",
        "02:30",
        "--timezone",
        "Europe/Berlin",
        "--all",
        "--quantity",
        "--json",
      ],
      { env },
    );
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const schedule = JSON.parse(created.stdout);
    expect(schedule).toMatchObject({
      name: "Nightly",
      schedule: { type: "daily", time: "02:30" },
      timezone: "Europe/Berlin",
      isFullSync: true,
      syncOptions: { price: false, quantity: true },
      status: "active",
    });

    const edited = await runCli(["schedules", "edit", schedule._id, "--time", "03:15"], { env });
    expect(edited.code).toBe(0);
    expect(edited.stdout).toContain("Schedule updated successfully");
    const { schedules } = await user.api.call("listSchedules");
    expect(schedules).toEqual([
      expect.objectContaining({
        _id: schedule._id,
        name: "Nightly",
        schedule: expect.objectContaining({ type: "daily", time: "03:15" }),
        timezone: "Europe/Berlin",
        syncOptions: { price: false, quantity: true },
      }),
    ]);

    const off = await runCli(["schedules", "disable", schedule._id, "--json"], { env });
    expect(off.code).toBe(0);
    expect(JSON.parse(off.stdout).status).toBe("inactive");
    const on = await runCli(["schedules", "enable", schedule._id], { env });
    expect(on.code).toBe(0);
    expect(on.stdout).toContain("Schedule activated successfully");

    const deleted = await runCli(["schedules", "delete", schedule._id], { env });
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain("Schedule deleted successfully");
    expect((await user.api.call("listSchedules")).total).toBe(0);
  });

  it("checks flags (exit 2) and reports the server's rules (exit 1)", async () => {
    const { env } = await subscriber();
    const interval = await runCli(
      ["schedules", "create", "--name", "X", "--type", "hourly", "--interval", "5", "--all"],
      { env },
    );
    expect(interval.code).toBe(2);
    expect(interval.stderr).toContain("--interval must be one of 1, 2, 4, 6, 8, 12.");

    const scope = await runCli(
      ["schedules", "create", "--name", "X", "--type", "hourly", "--interval", "2"],
      {
        env,
      },
    );
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain("Choose what to sync: --all or --mapping <id...>.");

    const noTime = await runCli(
      ["schedules", "create", "--name", "X", "--type", "daily", "--all", "--json"],
      {
        env,
      },
    );
    expect(noTime.code).toBe(1);
    expect(JSON.parse(noTime.stderr).error).toMatchObject({ code: "VALIDATION_FAILED" });

    const unknown = await runCli(["schedules", "edit", "no-such-schedule", "--name", "Y"], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No schedule no-such-schedule");
  });
});
