import type { PushMessage } from '../../ports/push-sender.js';
import type { AccountLanguage } from '../accounts/types.js';
import type { HouseholdId } from '../kernel/ids.js';

/**
 * What a push says, before it is put in words. Only what every member of the household already sees: the
 * household's name, a member's display name, a line's display name, a count, and ids for the app to route on.
 */
export type MessageInput = { readonly householdId: HouseholdId; readonly householdName: string } & (
  | { readonly kind: 'member-joined'; readonly name: string }
  | { readonly kind: 'list-item-added'; readonly planId: string; readonly item: string; readonly by: string | null }
  | { readonly kind: 'list-items-ticked'; readonly planId: string; readonly count: number }
  | { readonly kind: 'receipt-reminder'; readonly planId: string; readonly listId: string }
  | { readonly kind: 'week-planned'; readonly planId: string; readonly week: number; readonly dinners: number; readonly by: string | null }
);

/** Names are cut to this many characters: a push stays far below the providers' 4 KB. */
export const NAME_MAX = 60;
const clip = (s: string, max = NAME_MAX) => {
  const t = s.trim().replace(/\s+/g, ' ');
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
};

type Texts = { readonly [K in MessageInput['kind']]: (m: Extract<MessageInput, { kind: K }>) => string };

const TEXTS: Readonly<Record<AccountLanguage, Texts>> = {
  nb: {
    'member-joined': (m) => `${clip(m.name)} ble med i husstanden`,
    'list-item-added': (m) => (m.by === null ? `${clip(m.item)} ble lagt til på handlelisten` : `${clip(m.by)} la til ${clip(m.item)} på handlelisten`),
    'list-items-ticked': (m) => (m.count === 1 ? '1 vare er krysset av på handlelisten' : `${m.count} varer er krysset av på handlelisten`),
    'receipt-reminder': () => 'Husk å legge inn kvitteringen fra handleturen.',
    'week-planned': (m) => `${m.by === null ? 'Uke' : `${clip(m.by)} har planlagt uke`} ${m.week}${m.by === null ? ' er planlagt' : ''}: ${m.dinners === 1 ? '1 middag' : `${m.dinners} middager`}`,
  },
  en: {
    'member-joined': (m) => `${clip(m.name)} joined the household`,
    'list-item-added': (m) => (m.by === null ? `${clip(m.item)} was added to the shopping list` : `${clip(m.by)} added ${clip(m.item)} to the shopping list`),
    'list-items-ticked': (m) => (m.count === 1 ? '1 item ticked off the shopping list' : `${m.count} items ticked off the shopping list`),
    'receipt-reminder': () => 'Remember to add the receipt from your shopping trip.',
    'week-planned': (m) => `${m.by === null ? `Week ${m.week} is planned` : `${clip(m.by)} planned week ${m.week}`}: ${m.dinners === 1 ? '1 dinner' : `${m.dinners} dinners`}`,
  },
};

/**
 * The push in the recipient's language (Norwegian unless the login's language is English); title: the household.
 * A collapse key (under APNs' 64 bytes) lets a later tick count or reminder replace an undelivered earlier one.
 */
export function pushMessage(language: AccountLanguage, m: MessageInput): PushMessage {
  const say = TEXTS[language === 'en' ? 'en' : 'nb'][m.kind] as (m: MessageInput) => string;
  const data: Record<string, string> = { kind: m.kind, householdId: m.householdId };
  let collapseKey: string | null = null;
  if (m.kind !== 'member-joined') data['planId'] = m.planId;
  if (m.kind === 'list-items-ticked') {
    data['count'] = String(m.count);
    collapseKey = `ticked-${m.planId}`;
  }
  if (m.kind === 'receipt-reminder') collapseKey = `receipt-${m.listId}`;
  if (m.kind === 'week-planned') collapseKey = `planned-${m.planId}`;
  return { title: clip(m.householdName, 80), body: say(m), data, collapseKey };
}
