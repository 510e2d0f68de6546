import { computed, signal } from '@preact/signals';
import { api, call, type Me } from './api';

/** Who is signed in: undefined while asking, null when nobody is. */
export const me = signal<Me | null | undefined>(undefined);

const HOUSEHOLD_KEY = 'household';
/** The household the screens show: the one picked last, else the first. */
export const householdId = signal<string | null>(localStorage.getItem(HOUSEHOLD_KEY));
export const household = computed(() => {
  const ms = me.value?.memberships ?? [];
  return ms.find((m) => m.householdId === householdId.value) ?? ms[0] ?? null;
});

export function pickHousehold(id: string): void {
  householdId.value = id;
  localStorage.setItem(HOUSEHOLD_KEY, id);
}

export async function loadMe(): Promise<void> {
  try {
    me.value = await call(api.GET('/api/v1/me'));
  } catch {
    me.value = null;
  }
}

/** Signs out and forgets everything kept in this browser: a family tablet is shared. */
export async function signOut(): Promise<void> {
  await call(api.POST('/api/v1/auth/logout')).catch(() => undefined);
  localStorage.clear();
  sessionStorage.clear();
  me.value = null;
  householdId.value = null;
}
