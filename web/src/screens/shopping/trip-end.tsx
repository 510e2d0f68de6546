import { useEffect, useRef, useState } from 'preact/hooks';
import type { ShoppingList } from '../../api';
import { t } from '../../i18n';
import { AskFirst } from '../../ui';

type Unticked = 'bought' | 'keep' | 'drop';

/** Focus moves to the first button of a question as it opens, so that a keyboard or screen reader is there. */
function useFocusFirst(open: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) ref.current?.querySelector('button')?.focus();
  }, [open]);
  return ref;
}

/**
 * The end of a trip. Open: "Ferdig handlet", which asks first when lines are still unticked (all bought, keep them
 * for next week's list, or drop them). Closed: what the trip put in the pantry, and "Åpne lista igjen", which asks
 * first, naming how many things go back out of the pantry.
 */
export function TripEnd({ list, unticked, busy, onComplete, onReopen }: { list: ShoppingList; unticked: number; busy: boolean; onComplete: (u: Unticked) => void; onReopen: () => void }) {
  const m = t.value;
  const [asking, setAsking] = useState(false);
  const closed = list.completedAt !== null;
  const ref = useFocusFirst(asking);
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => setAsking(false), [closed]);
  const cancel = () => {
    setAsking(false);
    requestAnimationFrame(() => back.current?.focus());
  };
  const out = list.tripSummary?.observationsWritten ?? 0;
  if (closed)
    return (
      <div class="trip-end" ref={ref}>
        {list.tripSummary && <p role="status">{m.tripDone(out)}</p>}
        {asking ? (
          <AskFirst id="ask-reopen" question={m.reopenAsk(out)} yes={m.yesReopen} busy={busy} onYes={onReopen} onCancel={cancel} />
        ) : (
          <p class="row">
            <a href="/receipts">{m.newReceipt}</a>
            <button ref={back} type="button" onClick={() => setAsking(true)}>
              {m.reopen}
            </button>
          </p>
        )}
      </div>
    );
  const choices: [Unticked, string][] = [
    ['bought', m.finishAllBought],
    ['keep', m.finishKeep],
    ['drop', m.finishDrop],
  ];
  return (
    <div class="trip-end" ref={ref}>
      {asking ? (
        <div class="ask" role="alertdialog" aria-labelledby="ask-finish">
          <p id="ask-finish">{m.finishAsk(unticked)}</p>
          <div class="row">
            {choices.map(([u, label]) => (
              <button key={u} type="button" class={u === 'keep' ? undefined : 'secondary'} disabled={busy} onClick={() => onComplete(u)}>
                {label}
              </button>
            ))}
            <button type="button" class="link" onClick={cancel}>
              {m.cancel}
            </button>
          </div>
        </div>
      ) : (
        <p>
          <button ref={back} type="button" onClick={() => (unticked > 0 ? setAsking(true) : onComplete('drop'))}>
            {m.complete}
          </button>
        </p>
      )}
    </div>
  );
}
