import type { Mail } from '../../ports/mailer.js';
import type { Account } from '../accounts/types.js';
import type { FeedbackReport } from './types.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
// The subject is one line of what the person wrote: no control characters, short.
const oneLine = (s: string, max: number) => {
  const flat = s.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The owner's alert about a new report: who, where, and what failed; the screenshot stays in the database. */
export function feedbackAlert(to: string, reporter: Account, report: FeedbackReport): Mail {
  const facts: [string, string][] = [
    ['Report', report.id],
    ['Received', report.receivedAt.toISOString()],
    ['From', `${reporter.displayName} <${reporter.email ?? 'no address'}> (account ${reporter.id})`],
    ['Household', report.householdId ?? '-'],
    ['Screen', report.screen ?? '-'],
    ['Build', report.build ?? '-'],
    ['Screenshot', report.screenshot ? `${report.screenshot.mediaType}, ${report.screenshot.bytes.length} bytes` : 'none'],
  ];
  const calls = report.failedCalls.map((c) => `${c.at.toISOString()} ${c.method} ${c.path} → ${c.status} (trace ${c.traceId ?? '-'})`);
  const text = [
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    report.message,
    '',
    `Failed calls (${calls.length}, newest first):`,
    ...(calls.length ? calls : ['none']),
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:sans-serif;line-height:1.5">',
    `<table>${facts.map(([k, v]) => `<tr><th align="left">${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`,
    `<blockquote style="white-space:pre-wrap">${esc(report.message)}</blockquote>`,
    `<p>Failed calls (${calls.length}, newest first):</p>`,
    calls.length ? `<ul>${calls.map((c) => `<li><code>${esc(c)}</code></li>`).join('')}</ul>` : '<p>none</p>',
    '</body></html>',
  ].join('\n');
  return { to, subject: `Feedback: ${oneLine(report.message, 60)}`, text, html };
}
