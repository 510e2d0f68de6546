import type { Mail, Mailer } from '../../ports/mailer.js';

/** Keeps mails in a list (the in-memory composition root and domain tests). */
export function memoryMailer(): Mailer & { readonly sent: Mail[] } {
  const sent: Mail[] = [];
  return { sent, send: async (mail) => void sent.push(mail) };
}
