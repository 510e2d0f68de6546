import { randomUUID } from 'node:crypto';
import type { NewAccount } from '../../ports/account-store.js';

/** Timestamps with milliseconds, as the stores must keep them. */
export const at = (iso: string) => new Date(iso);

export const newAccount = (over: Partial<NewAccount> = {}): NewAccount => ({
  id: randomUUID(),
  email: `someone.${randomUUID().slice(0, 8)}@example.com`,
  emailConfirmed: false,
  displayName: 'Kari Nordmann',
  language: 'nb',
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
  securityStamp: randomUUID().replace(/-/g, ''),
  createdAt: at('2026-03-01T10:15:30.123Z'),
  ...over,
});
