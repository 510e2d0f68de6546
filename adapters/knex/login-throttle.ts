import type { Knex } from 'knex';
import type { LoginThrottle } from '../../ports/login-throttle.js';
import { translated } from './errors.js';
import { iso, toDate } from './rows.js';

interface ThrottleRow {
  key: string;
  locked_until: Date | string | null;
}

export function knexLoginThrottle(knex: Knex): LoginThrottle {
  return translated<LoginThrottle>(knex, {
    async lockedUntil(key, now) {
      const row = (await knex<ThrottleRow>('login_throttle').where({ key }).first()) as ThrottleRow | undefined;
      if (!row?.locked_until) return null;
      const until = toDate(row.locked_until);
      return until.getTime() > now.getTime() ? until : null;
    },
    async recordFailure(key, now, rule) {
      // One atomic upsert counts the failure, so simultaneous wrong passwords of several processes all count.
      const windowStart = iso(new Date(now.getTime() - rule.windowMs));
      const counted = (await knex.raw(
        `insert into login_throttle (key, failures, window_started_at, locked_until) values (?, 1, ?, null)
         on conflict (key) do update set
           failures = case when login_throttle.window_started_at <= ? then 1 else login_throttle.failures + 1 end,
           window_started_at = case when login_throttle.window_started_at <= ? then excluded.window_started_at else login_throttle.window_started_at end
         returning failures`,
        [key, iso(now), windowStart, windowStart],
      )) as { rows?: { failures: number }[] } | { failures: number }[];
      const failures = Number((Array.isArray(counted) ? counted : counted.rows!)[0]!.failures);
      if (failures < rule.attempts) return false;
      // Only the request whose update starts the lock reports it.
      const locked = await knex('login_throttle')
        .where({ key })
        .andWhere('failures', '>=', rule.attempts)
        .update({ failures: 0, window_started_at: iso(now), locked_until: iso(new Date(now.getTime() + rule.lockMs)) });
      return locked === 1;
    },
    async clear(key) {
      await knex('login_throttle').where({ key }).delete();
    },
    async purge(now, windowMs) {
      return knex('login_throttle')
        .where('window_started_at', '<', iso(new Date(now.getTime() - windowMs)))
        .andWhere((q) => q.whereNull('locked_until').orWhere('locked_until', '<=', iso(now)))
        .delete();
    },
  });
}
