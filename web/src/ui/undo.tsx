import { signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { sentenceFor, t } from '../i18n';
import { whenSigningOut } from '../state';

/*
 * Nothing lost by one tap, the same way everywhere: an action that takes something away (a member removed, a pantry
 * item used up, a recipe or an event deleted) is shown done at once, with "Angre" for a few seconds; only then is it
 * sent. Undo sends nothing. One action waits at a time: the next one sends the one before at once, and so does
 * leaving the page. A refusal when it is sent brings the thing back, with the sentence for why.
 */

/** How long an action waits for "undo" before it is sent. */
export const UNDO_MS = 6000;

interface Pending {
  readonly id: number;
  /** What was done, as the person reads it ("Kari er fjernet fra husholdningen."). */
  readonly said: string;
  /** The keys of what the screens leave out meanwhile (hiddenByUndo). */
  readonly hides: readonly string[];
  readonly send: () => Promise<unknown>;
  readonly timer: ReturnType<typeof setTimeout>;
}

/** The action waiting for "undo", if any. */
const pending = signal<Pending | null>(null);
/** What the last action that was sent and refused said, and why. */
const failed = signal<{ said: string; why: string } | null>(null);
/** The keys of things an action waiting for "undo" has taken away: the screens leave them out. */
export const hiddenByUndo = signal<ReadonlySet<string>>(new Set());

let nextId = 0;

/** Shows again what an action hid. */
const unhide = (p: Pending) => (hiddenByUndo.value = new Set([...hiddenByUndo.value].filter((k) => !p.hides.includes(k))));

async function sendNow(p: Pending): Promise<void> {
  clearTimeout(p.timer);
  if (pending.value?.id === p.id) pending.value = null;
  try {
    await p.send();
    failed.value = null;
  } catch (err) {
    failed.value = { said: p.said, why: sentenceFor(err) };
  } finally {
    // Shown again when refused; when sent, the screen has read it again (send reads what it changed) or will.
    unhide(p);
  }
}

/**
 * Takes something away with a few seconds to undo: `hides` are the keys the screens leave out at once, `send` the
 * call (and the read after it) that does it once the time is up.
 */
export function withUndo(said: string, hides: readonly string[], send: () => Promise<unknown>): void {
  const before = pending.value;
  if (before) void sendNow(before);
  failed.value = null;
  const id = ++nextId;
  const p: Pending = { id, said, hides, send, timer: setTimeout(() => void sendNow(p), UNDO_MS) };
  pending.value = p;
  hiddenByUndo.value = new Set([...hiddenByUndo.value, ...hides]);
}

/** Takes back the action waiting for "undo": nothing is sent, and what it hid shows again. */
export function undo(): void {
  const p = pending.value;
  if (!p) return;
  clearTimeout(p.timer);
  pending.value = null;
  unhide(p);
}

// A sign-in that ends takes what waits with it: it is never sent under another sign-in (nor as nobody).
whenSigningOut(async () => undo());

if (typeof window !== 'undefined') {
  // Leaving the page (or the app going to the background on a phone) sends what waits: it was done, and not undone.
  const flush = () => {
    const p = pending.value;
    if (p) void sendNow(p);
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
}

/** The one place every screen's "undo" shows: what was done and "Angre", or what was refused and why. */
export function UndoBar() {
  const m = t.value;
  const p = pending.value;
  const f = failed.value;
  const button = useRef<HTMLButtonElement>(null);
  // The keyboard reaches "Angre" at once: it moves there when an action starts waiting.
  useEffect(() => {
    if (p) button.current?.focus();
  }, [p?.id]);
  return (
    <div class="undo-bar" role="status" aria-live="polite">
      {p && (
        <p>
          <span>{p.said}</span>
          <button type="button" ref={button} onClick={undo}>
            {m.undo}
          </button>
        </p>
      )}
      {!p && f && (
        <p class="problem">
          {m.undoFailed(f.said)} {f.why}
        </p>
      )}
    </div>
  );
}
