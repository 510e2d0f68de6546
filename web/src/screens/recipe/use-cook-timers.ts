import { useEffect, useRef, useState } from 'preact/hooks';

// Number words a step may use instead of digits ("trekk i fem minutter", "simmer for ten minutes"). Norwegian and
// English; a recipe is written in its own language, whatever the household reads the screens in.
const NORWEGIAN: Readonly<Record<string, number>> = {
  en: 1, ett: 1, ei: 1, to: 2, tre: 3, fire: 4, fem: 5, seks: 6, sju: 7, syv: 7, åtte: 8, ni: 9, ti: 10,
  elleve: 11, tolv: 12, femten: 15, tjue: 20, tretti: 30, førti: 40, femti: 50,
};
const ENGLISH: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50,
};
const WORDS = [...Object.keys(NORWEGIAN), ...Object.keys(ENGLISH)].sort((a, b) => b.length - a.length).join('|');
const NUMBER = `(\\d+(?:[.,]\\d+)?(?:\\s*½)?|½|${WORDS})`;
// "10–12 minutter", "10 til 12 min", "10 to 12 minutes", "1½ time", "2 timer", "fem minutter", "25 min."
const DURATION = new RegExp(`(?<![\\p{L}\\d])${NUMBER}(?:\\s*(?:-|–|—|til|to|or|eller)\\s*${NUMBER})?\\s*(minutter|minutt|minutes|minute|mins|min|timer|time|hours|hour)(?![\\p{L}])`, 'giu');
// Fixed phrases for a quarter and a half hour, which name no number.
const PHRASES: readonly (readonly [RegExp, number])[] = [
  [/(?<![\p{L}])(?:et|ett)\s+kvarter(?![\p{L}])/giu, 15],
  [/(?<![\p{L}])halvannen\s+time(?![\p{L}])/giu, 90],
  [/(?<![\p{L}])(?:en\s+)?halv\s*time(?![\p{L}])/giu, 30],
  [/(?<![\p{L}])half\s+an\s+hour(?![\p{L}])/giu, 30],
];

/** A number as a step writes it: digits (a comma or a point for decimals, ½ for a half) or a word. */
function numberOf(text: string): number | null {
  const word = text.toLowerCase();
  if (word in NORWEGIAN) return NORWEGIAN[word]!;
  if (word in ENGLISH) return ENGLISH[word]!;
  const half = text.includes('½') ? 0.5 : 0;
  const digits = text.replace('½', '').trim();
  const n = digits === '' ? 0 : Number(digits.replace(',', '.'));
  return Number.isFinite(n) ? n + half : null;
}

/**
 * The durations a step names, in minutes, in the order it names them: "kok i 10 minutter" is [10], "stek 5 min, snu og
 * stek 3 min til" is [5, 3], "la det trekke et kvarter" is [15], "1½ time" is [90]. A range ("10–12 minutter") gives
 * its first, smaller number: a timer that rings at the earliest time lets the cook look and add a minute, while a
 * dish cooked too long cannot be taken back. "time" (Norwegian for hour) counts only after digits or a Norwegian
 * word, so English "one time" is no hour. At most a day; durations under a minute are left out.
 */
export function minutesIn(step: string): number[] {
  const found: { at: number; minutes: number }[] = [];
  for (const match of step.matchAll(DURATION)) {
    const [, first, , unit] = match;
    const n = numberOf(first!);
    const hours = /^(timer|time|hours|hour)$/i.test(unit!);
    if (n === null || (/^(timer|time)$/i.test(unit!) && first!.toLowerCase() in ENGLISH)) continue;
    found.push({ at: match.index, minutes: Math.round(hours ? n * 60 : n) });
  }
  for (const [pattern, minutes] of PHRASES) for (const match of step.matchAll(pattern)) found.push({ at: match.index, minutes });
  return found
    .sort((a, b) => a.at - b.at)
    .map((f) => f.minutes)
    .filter((m) => m >= 1 && m <= 24 * 60);
}

/** A kitchen timer started from a step: which step (counted from 1), for how long, and when it rings. */
export interface CookTimer {
  readonly id: string;
  readonly step: number;
  readonly minutes: number;
  readonly endsAt: number;
  readonly done: boolean;
}

/** Seconds as a kitchen clock shows them: 09:05, and 75:00 past the hour. */
export const clock = (seconds: number): string => `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;

/** Whole seconds left of a timer at `now` (never below 0). */
export const secondsLeft = (timer: CookTimer, now: number): number => Math.max(0, Math.ceil((timer.endsAt - now) / 1000));

/**
 * Three short beeps, made on the spot (no sound file to fetch). The audio context is made at a press of "Start"
 * (browsers only let a page make sound after a press), and kept for the rings after it.
 */
function beep(audio: AudioContext | null): void {
  if (!audio) return;
  try {
    for (let i = 0; i < 3; i++) {
      const at = audio.currentTime + i * 0.4;
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = 880;
      volume.gain.setValueAtTime(0.2, at);
      volume.gain.exponentialRampToValueAtTime(0.001, at + 0.3);
      tone.connect(volume).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.3);
    }
  } catch {
    // No sound is no reason to stop: the page says it, and the phone vibrates where it can.
  }
}

/**
 * The cooking view's timers: started from a step, kept while the cook moves between steps, counted from the clock
 * (when each ends, not ticks counted, so a phone that slows a page's timers still rings on time). When one ends it is
 * marked done (for the page to say), the phone vibrates where it can (navigator.vibrate), and it beeps.
 */
export function useCookTimers() {
  const [timers, setTimers] = useState<readonly CookTimer[]>([]);
  const [now, setNow] = useState(() => Date.now());
  const audio = useRef<AudioContext | null>(null);
  const running = timers.some((t) => !t.done);

  useEffect(() => {
    if (!running) return;
    const tick = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(tick);
  }, [running]);

  useEffect(() => {
    const ended = timers.filter((t) => !t.done && t.endsAt <= now);
    if (ended.length === 0) return;
    setTimers((all) => all.map((t) => (ended.some((e) => e.id === t.id) ? { ...t, done: true } : t)));
    if ('vibrate' in navigator) navigator.vibrate([400, 200, 400, 200, 400]);
    beep(audio.current);
  }, [now, timers]);

  // Leaving the cooking view ends its timers and lets the sound go.
  useEffect(() => () => void audio.current?.close().catch(() => undefined), []);

  const start = (id: string, step: number, minutes: number) => {
    if (!audio.current && 'AudioContext' in window) {
      try {
        audio.current = new AudioContext();
      } catch {
        audio.current = null;
      }
    }
    const at = Date.now();
    setNow(at);
    setTimers((all) => [...all.filter((t) => t.id !== id), { id, step, minutes, endsAt: at + minutes * 60_000, done: false }]);
  };
  const stop = (id: string) => setTimers((all) => all.filter((t) => t.id !== id));
  return { timers, now, start, stop };
}

/**
 * Keeps the screen on while the cooking view is open, where the browser has the Screen Wake Lock API; says nothing
 * where it has not. The browser lets the lock go when the page is hidden, so it is asked for again each time the page
 * shows; it is let go on leaving. Answers whether the screen is being kept on, for the page to say so.
 */
export function useWakeLock(): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (!('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let left = false;
    const ask = () => {
      if (left || document.visibilityState !== 'visible' || (lock && !lock.released)) return;
      navigator.wakeLock.request('screen').then(
        (sentinel) => {
          if (left) return void sentinel.release().catch(() => undefined);
          lock = sentinel;
          setHeld(true);
          sentinel.addEventListener('release', () => setHeld(false));
        },
        // Refused (a battery saver, a page not in front): the screen may dim as it always does.
        () => setHeld(false),
      );
    };
    ask();
    document.addEventListener('visibilitychange', ask);
    return () => {
      left = true;
      document.removeEventListener('visibilitychange', ask);
      void lock?.release().catch(() => undefined);
    };
  }, []);
  return held;
}
