import { useEffect, useRef, useState } from 'preact/hooks';

// The pure parts (reading a step's minutes, the mm:ss clock) live in durations.ts.

/** A kitchen timer started from a step: which step (counted from 1), for how long, and when it rings. */
export interface CookTimer {
  readonly id: string;
  readonly step: number;
  readonly minutes: number;
  readonly endsAt: number;
  readonly done: boolean;
}


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
