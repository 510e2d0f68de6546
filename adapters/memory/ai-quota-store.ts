import type { AiQuotaStore } from '../../ports/planner-ai.js';
import type { MemoryTables } from './stores.js';

export function memoryAiQuotaStore(t: MemoryTables): AiQuotaStore {
  const calls = new Map<string, number>();
  const pauses = new Map<string, Date>();
  // A household's counts and pause go with it, as the foreign keys' cascade does.
  const alive = (householdId: string) => t.households.has(householdId);
  const pausedUntil = async (householdId: string, now: Date): Promise<Date | null> => {
    const until = alive(householdId) ? pauses.get(householdId) : undefined;
    return until && until > now ? new Date(until) : null;
  };
  return {
    async take(householdId, month, limit, now) {
      const until = await pausedUntil(householdId, now);
      if (until) return { allowed: false, why: 'paused', until };
      if (!alive(householdId)) throw new Error('no such household');
      const key = `${householdId}/${month}`;
      const used = calls.get(key) ?? 0;
      if (used >= limit) return { allowed: false, why: 'quota-used' };
      calls.set(key, used + 1);
      return { allowed: true };
    },
    async used(householdId, month) {
      return alive(householdId) ? (calls.get(`${householdId}/${month}`) ?? 0) : 0;
    },
    async pause(householdId, until) {
      if (until === null) pauses.delete(householdId);
      else if (alive(householdId)) pauses.set(householdId, new Date(until));
    },
    pausedUntil,
  };
}
