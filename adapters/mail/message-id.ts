import type { Mail } from '../../ports/mailer.js';

/**
 * nodemailer's message of a mail: its Message-ID, when the mail has one, is `<id@domain of the sender>`, the same
 * at every attempt (a receiving server may drop a repeat by it).
 */
export function messageOf(mail: Mail, from: string) {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return { from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, ...(mail.messageId ? { messageId: `<${mail.messageId}@${domain}>` } : {}) };
}
