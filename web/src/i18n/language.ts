import { computed, signal } from '@preact/signals';
import { en } from './en';
import { nb, type Messages } from './nb';
import { LOCALES, type Language } from './plural';

export type { Language };

const catalogues: Record<Language, Messages> = { nb, en };

const stored = localStorage.getItem('lang');
/** The language of the screen: the household's once one is open, else the browser's (Norwegian unless it prefers English). */
export const language = signal<Language>(stored === 'en' || stored === 'nb' ? stored : navigator.language.startsWith('en') ? 'en' : 'nb');
/** The open catalogue: components read their words from it. */
export const t = computed(() => catalogues[language.value]);
document.documentElement.lang = language.value;

export function setLanguage(l: Language): void {
  language.value = l;
  localStorage.setItem('lang', l);
  document.documentElement.lang = l;
}

/** The locale Intl formats in for the screen's language. */
export const locale = (): string => LOCALES[language.value];
