import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface CapturedMail {
  readonly to: string;
  readonly from: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The Message-ID header, angle brackets included ('' without one). */
  readonly messageId: string;
}

/** A real SMTP server on loopback that keeps every mail it is handed (the service talks SMTP to it). */
export interface SmtpCapture {
  readonly url: string;
  readonly mails: CapturedMail[];
  /** Waits until a mail to `to` (and matching `where`) has arrived, and answers it. */
  waitFor(to: string, where?: (m: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  /** The mails to `to` so far. */
  to(to: string): CapturedMail[];
  close(): Promise<void>;
}

/**
 * `beforeAccept`, when given, is awaited before a mail is accepted (the client waits for the answer to its DATA):
 * tests use it to hold senders until they send at the same time.
 */
export async function startSmtpCapture(options: { beforeAccept?: (mail: CapturedMail) => Promise<void> } = {}): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      // An error beforeAccept throws is the server's answer (its responseCode, 450 without one).
      simpleParser(stream)
        .then(async (parsed) => {
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          const got = to.map((rcpt) => ({
            to: rcpt,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            messageId: parsed.messageId ?? '',
          }));
          if (options.beforeAccept) for (const m of got) await options.beforeAccept(m);
          mails.push(...got);
          waiters.forEach((w) => w());
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const to = (address: string) => mails.filter((m) => m.to === address.toLowerCase());
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to,
    waitFor(address, where = () => true, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = to(address).find(where);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${address} within ${timeoutMs} ms (have: ${mails.map((m) => `${m.to}: ${m.subject}`).join('; ')})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The link in a mail's text that starts with `prefix`, parsed. */
export function linkIn(mail: CapturedMail, prefix: string): URL {
  const m = mail.text.match(/https?:\/\/\S+/g)?.find((u) => u.startsWith(prefix));
  if (!m) throw new Error(`no link starting with ${prefix} in: ${mail.text}`);
  return new URL(m);
}
