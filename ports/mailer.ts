/** One mail, plain text plus HTML. */
export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /**
   * When the mail's link stops working (a confirm or reset link): a mail still waiting for delivery then is dropped,
   * never sent. Absent or null: the mail keeps.
   */
  readonly expiresAt?: Date | null;
  /**
   * The left part of the Message-ID (before the @): the mail outbox gives each mail its id here, so every attempt
   * of one mail carries the same Message-ID and a receiving server can tell a repeat.
   */
  readonly messageId?: string;
}

export interface Mailer {
  /**
   * Hands the mail over for delivery. Resolves once it is accepted (by the mail server, or by the outbox that
   * delivers it later); throws when it was not. An error with `permanent: true` says the server refused this mail
   * for good (an SMTP 55x answer): sending it again would not help.
   */
  send(mail: Mail): Promise<void>;
}
