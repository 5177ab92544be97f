import { describe, expect, it } from "vitest";
import { bellLabel, describeAttempt, notificationTarget, timeAgo, unreadBadge } from "./notification-view.ts";

describe("the bell", () => {
  it("says the unread count in its name and badge, 99+ past 99", () => {
    expect(bellLabel(0)).toBe("Notifications");
    expect(bellLabel(3)).toBe("Notifications, 3 unread");
    expect(unreadBadge(7)).toBe("7");
    expect(unreadBadge(120)).toBe("99+");
  });

  it("leads to the run in Execution History, or to the schedules for a missed one", () => {
    expect(notificationTarget({ historyId: "h1" })).toEqual({
      to: "/execution-history",
      search: { entry: "h1" },
    });
    expect(notificationTarget({ historyId: null })).toEqual({ to: "/mapping-schedule" });
  });

  it("says how long ago, then the date", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    expect(timeAgo("2026-11-21T11:59:40Z", now)).toBe("just now");
    expect(timeAgo("2026-11-21T11:55:00Z", now)).toBe("5 min ago");
    expect(timeAgo("2026-11-21T09:00:00Z", now)).toBe("3 h ago");
    expect(timeAgo("2026-11-19T09:00:00Z", now)).toMatch(/^Nov 19, 2026/);
  });
});

describe("a delivery's last attempt", () => {
  it("names the error, else the answer's code (HTTP or SMTP), else only the count", () => {
    const webhook = { channel: "webhook" as const };
    expect(describeAttempt({ ...webhook, attempts: 0, lastStatusCode: null, lastError: null })).toBe(
      "Not tried yet",
    );
    expect(
      describeAttempt({
        ...webhook,
        attempts: 2,
        lastStatusCode: 500,
        lastError: "The receiver answered HTTP 500",
      }),
    ).toBe("2 attempts: The receiver answered HTTP 500");
    expect(describeAttempt({ ...webhook, attempts: 1, lastStatusCode: 200, lastError: null })).toBe(
      "1 attempt: HTTP 200",
    );
    expect(describeAttempt({ channel: "email", attempts: 1, lastStatusCode: 250, lastError: null })).toBe(
      "1 attempt: SMTP 250",
    );
    expect(describeAttempt({ ...webhook, attempts: 1, lastStatusCode: null, lastError: null })).toBe(
      "1 attempt",
    );
  });
});
