// The time-zone picker's places, said in the household's language: the service's zones (IANA names such as
// "America/Argentina/Buenos_Aires") grouped by part of the world, each named by its place and the time it keeps
// ("København — sentraleuropeisk tid (GMT+1)"), the household's own zone first. Everything but the place names comes
// from the browser's Intl; places Norwegians call otherwise have their Norwegian name here.

export type ZoneLanguage = 'nb' | 'en';

/** A zone as the picker shows it. */
export interface ZoneChoice {
  readonly zone: string;
  readonly label: string;
}

/** The picker's groups, in order: the household's own zone first, then each part of the world. */
export interface ZoneGroup {
  readonly label: string;
  readonly zones: readonly ZoneChoice[];
}

const PARTS: Readonly<Record<string, Readonly<Record<ZoneLanguage, string>>>> = {
  Europe: { nb: 'Europa', en: 'Europe' },
  America: { nb: 'Amerika', en: 'Americas' },
  Africa: { nb: 'Afrika', en: 'Africa' },
  Asia: { nb: 'Asia', en: 'Asia' },
  Australia: { nb: 'Australia', en: 'Australia' },
  Pacific: { nb: 'Stillehavet', en: 'Pacific' },
  Atlantic: { nb: 'Atlanterhavet', en: 'Atlantic' },
  Indian: { nb: 'Indiahavet', en: 'Indian Ocean' },
  Antarctica: { nb: 'Antarktis', en: 'Antarctica' },
  Arctic: { nb: 'Arktis', en: 'Arctic' },
};
const OTHER: Readonly<Record<ZoneLanguage, string>> = { nb: 'Andre', en: 'Other' };
const OWN: Readonly<Record<ZoneLanguage, string>> = { nb: 'Husholdningens tidssone', en: "The household's time zone" };

/** Places whose Norwegian name is not the zone's own (the zone's last part, with spaces). */
const NORWEGIAN_PLACES: Readonly<Record<string, string>> = {
  Copenhagen: 'København',
  Helsinki: 'Helsingfors',
  Moscow: 'Moskva',
  Rome: 'Roma',
  Lisbon: 'Lisboa',
  Warsaw: 'Warszawa',
  Prague: 'Praha',
  Vienna: 'Wien',
  Brussels: 'Brussel',
  Athens: 'Athen',
  Kiev: 'Kyiv',
  Bucharest: 'București',
  Belgrade: 'Beograd',
  Zurich: 'Zürich',
  Canary: 'Kanariøyene',
  Reykjavik: 'Reykjavík',
  Mexico_City: 'Mexico by',
  Sao_Paulo: 'São Paulo',
};

/** The place a zone names, in `language` ("Europe/Copenhagen" → "København" in Norwegian, "Copenhagen" in English). */
export function placeOf(zone: string, language: ZoneLanguage): string {
  const last = zone.split('/').pop() ?? zone;
  const own = language === 'nb' ? NORWEGIAN_PLACES[last] : undefined;
  return own ?? last.replace(/_/g, ' ');
}

/** The part of an Intl date format for `zone` at `at`, e.g. its long generic name or its GMT offset; '' when unknown. */
function zonePart(zone: string, language: ZoneLanguage, at: Date, timeZoneName: 'longGeneric' | 'shortOffset'): string {
  try {
    const parts = new Intl.DateTimeFormat(language === 'nb' ? 'nb-NO' : 'en-GB', { timeZone: zone, timeZoneName }).formatToParts(at);
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

/** A zone's label: its place, the time it keeps and its offset now ("Oslo — sentraleuropeisk tid (GMT+1)"). */
export function zoneLabel(zone: string, language: ZoneLanguage, at: Date = new Date()): string {
  const place = placeOf(zone, language);
  const time = zonePart(zone, language, at, 'longGeneric');
  const offset = zonePart(zone, language, at, 'shortOffset');
  // A generic name that only repeats the place or the offset ("Oslo", "GMT+1") adds nothing.
  const kept = time !== '' && time !== offset && !time.includes(place) ? ` — ${time}` : '';
  return `${place}${kept}${offset === '' ? '' : ` (${offset})`}`;
}

/**
 * The picker's groups: `own` (the household's zone, or the browser's for a new household) first, then every other
 * zone by part of the world in the order of PARTS, each group sorted by label as the language sorts.
 */
export function zoneGroups(zones: readonly string[], own: string, language: ZoneLanguage, at: Date = new Date()): ZoneGroup[] {
  const collator = new Intl.Collator(language === 'nb' ? 'nb' : 'en');
  const byPart = new Map<string, ZoneChoice[]>();
  for (const zone of zones) {
    // The household's own zone is in its own group, not twice.
    if (zone === own) continue;
    const part = zone.includes('/') && PARTS[zone.split('/')[0]!] ? zone.split('/')[0]! : 'Other';
    byPart.set(part, [...(byPart.get(part) ?? []), { zone, label: zoneLabel(zone, language, at) }]);
  }
  const groups: ZoneGroup[] = zones.includes(own) ? [{ label: OWN[language], zones: [{ zone: own, label: zoneLabel(own, language, at) }] }] : [];
  for (const part of [...Object.keys(PARTS), 'Other']) {
    const choices = byPart.get(part);
    if (!choices) continue;
    groups.push({ label: part === 'Other' ? OTHER[language] : PARTS[part]![language], zones: choices.sort((a, b) => collator.compare(a.label, b.label)) });
  }
  return groups;
}
