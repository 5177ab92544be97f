import nodemailer from "nodemailer";

/**
 * Sends one plain-text email and answers the server's reply code (250); throws a MailError when the
 * server refuses or cannot be reached.
 */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<{ responseCode: number | null }>;
}

/** A refused or failed send, with the SMTP reply code when the server gave one. */
export class MailError extends Error {
  constructor(
    message: string,
    readonly responseCode: number | null,
  ) {
    super(message);
    this.name = "MailError";
  }
}

/**
 * Email over SMTP with nodemailer (runs on Deno through npm: and on Node): `url` is SMTP_URL
 * (`smtp://user:pass@host:587` with STARTTLS when offered, `smtps://` for TLS from the start).
 * Timeouts keep a dead server from holding a tick.
 */
export function createSmtpMailer(options: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(
    { url: options.url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from: options.from },
  );
  return {
    async send(message) {
      try {
        const info = await transport.sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
        });
        // nodemailer answers the server's last reply as text ("250 2.0.0 OK ...").
        const code = /^(\d{3})\b/.exec(info.response ?? "")?.[1];
        return { responseCode: code ? Number(code) : null };
      } catch (error) {
        throw new MailError(
          `SMTP: ${error instanceof Error ? error.message : String(error)}`,
          responseCodeOf(error),
        );
      }
    },
  };
}

function responseCodeOf(error: unknown): number | null {
  if (typeof error !== "object" || error === null || !("responseCode" in error)) return null;
  return typeof error.responseCode === "number" ? error.responseCode : null;
}
