import type { Clock } from '../../ports/clock.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { Mail, Mailer } from '../../ports/mailer.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';

/** What a use case needs to list an address and mail it a link with a fresh token. */
export interface LinkMailDeps {
  mailer: Mailer;
  tokens: SecretTokens;
  ids: IdGenerator;
  clock: Clock;
  /** Base of the links in mails. */
  publicBaseUrl: string;
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The words of a mail with one link: its paragraphs, the link's label, and a small print after the link. */
export interface LinkMailWords {
  readonly subject: string;
  readonly lines: readonly string[];
  readonly action: string;
  readonly footnote: string;
}

/** A mail with one link, plain text plus HTML (the link also written out, for mail programs that hide it). */
export function composeLinkMail(to: string, lang: string, w: LinkMailWords, link: string): Mail {
  const text = [...w.lines, '', `${w.action}: ${link}`, '', w.footnote, ''].join('\n');
  const html = [
    `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">`,
    ...w.lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(w.action)}</a></p>`,
    `<p style="color:#666;font-size:12px">${escapeHtml(link)}</p>`,
    `<p style="color:#666;font-size:12px">${escapeHtml(w.footnote)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: w.subject, text, html };
}
