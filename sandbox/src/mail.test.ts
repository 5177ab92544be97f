import nodemailer from "nodemailer";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "./serve-node.ts";

let running: RunningSandbox | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function caught(target: RunningSandbox) {
  const response = await fetch(`${target.origin}/__control/mail`);
  expect(response.status).toBe(200);
  return (await response.json()) as {
    subject: string;
    to: string;
    text: string;
    envelope: { to: string[] };
  }[];
}

describe("the mail catcher", () => {
  it("catches what is sent over SMTP and lists it newest first at /__control/mail", async () => {
    running = await startSandbox();
    const transport = nodemailer.createTransport(running.smtpUrl);
    await transport.sendMail({
      from: "Stockbridge <alerts@localhost>",
      to: "merchant@example.com",
      subject: "First",
      text: "One",
    });
    await transport.sendMail({
      from: "Stockbridge <alerts@localhost>",
      to: "Owner <owner@example.com>",
      subject: "Second ✓",
      text: "Two",
    });
    transport.close();

    const mail = await caught(running);
    expect(mail.map((message) => message.subject)).toEqual(["Second ✓", "First"]);
    expect(mail[0]).toMatchObject({
      to: '"Owner" <owner@example.com>',
      envelope: { to: ["owner@example.com"] },
      text: "Two\n",
    });
    const state = await (await fetch(`${running.origin}/__control/state`)).json();
    expect(state.mail).toEqual({ received: 2, kept: 2 });

    expect((await fetch(`${running.origin}/__control/mail`, { method: "DELETE" })).status).toBe(200);
    expect(await caught(running)).toEqual([]);
  });

  it("refuses a message over the size limit, as a real server does, and keeps nothing of it", async () => {
    running = await startSandbox();
    const transport = nodemailer.createTransport(running.smtpUrl);
    const refused = await transport
      .sendMail({
        from: "a@example.com",
        to: "b@example.com",
        subject: "Big",
        text: "x".repeat(11 * 1024 * 1024),
      })
      .catch((error: unknown) => error);
    transport.close();
    expect(refused).toMatchObject({ responseCode: 552 });
    expect(await caught(running)).toEqual([]);
  });
});
