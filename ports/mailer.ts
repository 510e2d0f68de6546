/** One mail, plain text plus HTML. */
export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface Mailer {
  /** Hands the mail over for delivery. Resolves once it is accepted (not necessarily delivered). */
  send(mail: Mail): Promise<void>;
}
