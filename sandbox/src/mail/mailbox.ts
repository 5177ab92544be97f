import type { SandboxClock } from "../clock.ts";

/** One message the sandbox's SMTP server accepted, as `GET /__control/mail` lists it. */
export interface CaughtMail {
  id: string;
  /** The envelope's MAIL FROM and RCPT TO: where the server was told to deliver it. */
  envelope: { from: string | null; to: string[] };
  from: string;
  to: string;
  subject: string;
  text: string;
  receivedAt: string;
}

/** Newest messages kept; older ones are dropped so a long demo does not grow without bound. */
const MAILBOX_LIMIT = 500;

/** Caught mail in memory: what a real mail server would have delivered, for people and tests to read. */
export function createMailbox(clock: SandboxClock) {
  const messages: CaughtMail[] = [];
  let received = 0;
  return {
    receive(mail: Omit<CaughtMail, "id" | "receivedAt">): CaughtMail {
      received += 1;
      const caught = { ...mail, id: `mail_${received}`, receivedAt: clock.now().toISOString() };
      messages.unshift(caught);
      messages.length = Math.min(messages.length, MAILBOX_LIMIT);
      return caught;
    },
    /** Newest first. */
    list(): CaughtMail[] {
      return [...messages];
    },
    clear(): void {
      messages.length = 0;
    },
    state() {
      return { received, kept: messages.length };
    },
  };
}

export type Mailbox = ReturnType<typeof createMailbox>;
