/** The languages the app speaks; each has one catalogue. */
export type Language = 'nb' | 'en';

/** The locale Intl formats and picks plural forms in, for each language. */
export const LOCALES: Readonly<Record<Language, string>> = { nb: 'nb-NO', en: 'en-GB' };

/**
 * A count in words, the form chosen by the language's own plural rules (Intl.PluralRules), `#` standing for the
 * number: count(3, '# porsjon', '# porsjoner') is "3 porsjoner". Both languages have one form for one and another
 * for every other count; a language with more forms would add them here.
 */
export function counter(lang: Language): (n: number, one: string, other: string) => string {
  const rules = new Intl.PluralRules(LOCALES[lang]);
  return (n, one, other) => (rules.select(n) === 'one' ? one : other).replace('#', String(n));
}
