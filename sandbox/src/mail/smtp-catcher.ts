import { type AddressObject, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { Mailbox } from "./mailbox.ts";

export interface RunningSmtpCatcher {
  /** `smtp://127.0.0.1:<port>`: what SMTP_URL of an edge in sandbox mode points at. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Real servers refuse larger messages too; an alert is a few kilobytes. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * A minimal SMTP server on loopback (smtp-server, nodemailer's own counterpart) that catches every
 * message into the mailbox instead of delivering it. Plain SMTP without STARTTLS; AUTH is optional
 * and any credentials pass, as the point is to see what the app sends.
 */
export async function startSmtpCatcher(
  mailbox: Mailbox,
  options: { port?: number; host?: string } = {},
): Promise<RunningSmtpCatcher> {
  const host = options.host ?? "127.0.0.1";
  const server = new SMTPServer({
    name: "sandbox.stockbridge.local",
    banner: "Stockbridge sandbox mail catcher",
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "sandbox" });
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          if (stream.sizeExceeded) {
            callback(Object.assign(new Error("Message exceeds the size limit"), { responseCode: 552 }));
            return;
          }
          mailbox.receive({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
            },
            from: parsed.from?.text ?? "",
            to: addressText(parsed.to),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
          });
          callback();
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  return {
    url: `smtp://${host}:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function addressText(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return "";
  return (Array.isArray(value) ? value : [value]).map((entry) => entry.text).join(", ");
}
