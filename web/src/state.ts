import { batch, computed, effect, signal } from '@preact/signals';
import { api, dataOf, type Household, type Me, type RecipeImportPreview } from './api';
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
/** The household reads started so far: an answer to an earlier one that comes after a later one is not kept. */
let householdReads = 0;

export async function loadHousehold(): Promise<void> {
  const id = household.value?.householdId;
  if (!id) {
    householdInfo.value = null;
    return;
  }
  const read = ++householdReads;
  let h: Household;
  try {
    householdProblem.value = null;
    h = await dataOf(api.GET('/api/v1/households/{householdId}', { params: { path: { householdId: id } } }));
  } catch (err) {
    if (read === householdReads) householdProblem.value = err;
    return;
  }
  // A read started before a change (a member removed) may answer after the read that follows the change: the older
  // answer would bring the removed member back on the screen.
  if (household.value?.householdId !== id || read !== householdReads) return;
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
    me.value = await dataOf(api.GET('/api/v1/me'));
  } catch {
    me.value = null;
  }
}
// Asked at once when the app's code has run, rather than after its first render. index.html has the browser fetch it
// beside the app's code already (a preload), and this call takes that answer.
if (typeof window !== 'undefined') void loadMe();

/** A recipe read from a web page, waiting on the new-recipe screen to be looked over and saved. */
export const importDraft = signal<RecipeImportPreview | null>(null);

const dayFormats: Record<string, Intl.DateTimeFormat> = {};
/** Today's date (YYYY-MM-DD) on the household's wall clock, or the browser's before the household is read. */
export function today(): string {
  const zone = householdInfo.value?.timeZoneId ?? '';
  // A formatter is slow to make and screens ask often: one per zone.
  const format = (dayFormats[zone] ??= new Intl.DateTimeFormat('en-CA', { timeZone: zone || undefined, year: 'numeric', month: '2-digit', day: '2-digit' }));
  const parts = format.formatToParts(new Date());
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** What else this browser keeps for the person (web/src/offline.ts), forgotten when their sign-in ends. */
const onSignOut: (() => Promise<void>)[] = [];
export const whenSigningOut = (forget: () => Promise<void>) => void onSignOut.push(forget);

let forgetting: Promise<void> | null = null;

/** The sign-in of the person this page showed ended elsewhere: the sign-in screen says so, until they sign in. */
export const signInEnded = signal(false);
/** Sign out is under way here: the sign-in's end that the live stream then reports is this one. */
let signingOut = false;

/**
 * Forgets the person on this device, however their sign-in ended: signed out here, or revoked, expired or deleted
 * elsewhere (a 401, the live stream's end). A family tablet is shared, and a phone may be lost: nothing of them
 * stays, neither on the screen nor in the browser's storage. Only the app's own files stay kept, so that it still
 * opens with no network (to the sign-in screen).
 */
export function forgetPerson(ended: 'here' | 'elsewhere' = 'here'): Promise<void> {
  // The screens drop the household at once, before anything slower is done.
  batch(() => {
    // Said only to someone this page showed as signed in, and who did not sign out here (the live stream says
    // `end signed-out` after Sign out too): a visitor who never was signed in is told nothing.
    if (ended === 'elsewhere' && me.value && !signingOut) signInEnded.value = true;
    me.value = null;
    householdId.value = null;
    householdInfo.value = null;
    householdProblem.value = null;
    importDraft.value = null;
  });
  localStorage.clear();
  sessionStorage.clear();
  // Several calls meeting the 401 at once forget once.
  forgetting ??= Promise.allSettled(onSignOut.map((forget) => forget())).then(() => {
    forgetting = null;
  });
  return forgetting;
}

/** Signs out: the service ends the sign-in (everywhere), and this browser forgets the person. */
export async function signOut(): Promise<void> {
  signingOut = true;
  try {
    await api.POST('/api/v1/auth/logout').catch(() => undefined);
    await forgetPerson();
  } finally {
    signingOut = false;
  }
}
