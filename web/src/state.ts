import { computed, effect, signal } from '@preact/signals';
import { api, call, type Household, type Me, type RecipeImportPreview } from './api';
import { setLanguage } from './i18n';

/** Who is signed in: undefined while asking, null when nobody is. */
export const me = signal<Me | null | undefined>(undefined);

const HOUSEHOLD_KEY = 'household';
/** The household the screens show: the one picked last, else the first. */
export const householdId = signal<string | null>(localStorage.getItem(HOUSEHOLD_KEY));
export const household = computed(() => {
  const ms = me.value?.memberships ?? [];
  return ms.find((m) => m.householdId === householdId.value) ?? ms[0] ?? null;
});

/** The open household itself (members, language, time zone, dinner time); null until read. */
export const householdInfo = signal<Household | null>(null);
/** Why the open household could not be read (no network, say); null otherwise. */
export const householdProblem = signal<unknown>(null);

/** Reads the open household again; its language becomes the screen's. */
export async function loadHousehold(): Promise<void> {
  const id = household.value?.householdId;
  if (!id) {
    householdInfo.value = null;
    return;
  }
  let h: Household;
  try {
    householdProblem.value = null;
    h = await call(api.GET('/api/v1/households/{householdId}', { params: { path: { householdId: id } } }));
  } catch (err) {
    householdProblem.value = err;
    return;
  }
  if (household.value?.householdId !== id) return;
  householdInfo.value = h;
  setLanguage(h.language);
}

// Whenever another household opens (sign-in, switch, join), read it.
let opened: string | null = null;
effect(() => {
  const id = household.value?.householdId ?? null;
  if (id === opened) return;
  opened = id;
  householdInfo.value = null;
  void loadHousehold();
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

/** A recipe read from a web page, waiting on the new-recipe screen to be looked over and saved. */
export const importDraft = signal<RecipeImportPreview | null>(null);

/** Today's date (YYYY-MM-DD) on the household's wall clock, or the browser's before the household is read. */
export function today(): string {
  const zone = householdInfo.value?.timeZoneId;
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date());
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** What else this browser keeps for the person (web/src/offline.ts), forgotten when they sign out. */
const onSignOut: (() => Promise<void>)[] = [];
export const whenSigningOut = (forget: () => Promise<void>) => void onSignOut.push(forget);

/** Signs out and forgets everything kept in this browser: a family tablet is shared. */
export async function signOut(): Promise<void> {
  await call(api.POST('/api/v1/auth/logout')).catch(() => undefined);
  await Promise.all(onSignOut.map((forget) => forget()));
  localStorage.clear();
  sessionStorage.clear();
  me.value = null;
  householdId.value = null;
  householdInfo.value = null;
}
