import { useEffect, useRef, useState } from 'preact/hooks';
import type { ShoppingItem } from '../../api';
import { amount, buyAmount, kroner } from '../../format';
import { t } from '../../i18n';
import { AmountEditor } from './amount-editor';
import { needOf } from './use-shopping-list';

/**
 * Whether a line's amount form is open, and the keyboard's way back: closed while the line stays on the list, focus
 * returns to the "Endre mengde" button that opened it (a line that the amount bought moves to the basket, and the
 * list moves focus on from there).
 */
function useEditing() {
  const [editing, setEditing] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const back = useRef(false);
  useEffect(() => {
    if (editing || !back.current) return;
    back.current = false;
    opener.current?.focus();
  }, [editing]);
  const close = () => {
    back.current = true;
    setEditing(false);
  };
  return { editing, opener, open: () => setEditing(true), close };
}

/**
 * One line of the list: its tick box (`tick-<id>`, so that focus can find it after the line moves), amount, price
 * when known, what it is for, and (for lines put there by hand) a way to remove it. A line with an amount still to
 * buy has a way to say how much of it is in the basket (onAmount). A line added offline and still waiting to be sent
 * says so, and cannot be ticked or changed until the service has it.
 */
export function ListLine(props: {
  item: ShoppingItem;
  bought: boolean;
  reason: string;
  closed: boolean;
  waiting?: boolean;
  onTick: () => void;
  onRemove: () => void;
  onAmount: (purchasedQuantity: number) => void;
}) {
  const { item: i, bought, reason, closed } = props;
  const m = t.value;
  const edit = useEditing();
  const changeable = !bought && !closed && !props.waiting && needOf(i) > 0;
  const removable = (i.reasonCode === 'Manual' || i.reasonCode === 'AddedRecipe') && !closed;
  // A line still to buy shows what is left to buy ("+2 l" while 6 dl are in the basket); a line in the basket what
  // was bought. The exact need stands beside it when rounding to whole pieces or packages made them differ
  // ("2 stk · trenger 1,75 stk"); a need only written in a larger unit (26 dl as 2,6 l) says nothing more.
  const inBasket = i.purchasedQuantity > 0 ? amount(i.purchasedQuantity, i.purchasedUnit ?? i.unit) : '';
  const show = bought ? (inBasket || buyAmount(i.buy)) : buyAmount(i.remaining);
  const need = Math.round(i.remainingQuantity * 100) / 100;
  const exact = !bought && i.remaining.quantity !== null && ((i.remaining.unit === i.unit && i.remaining.quantity !== need) || i.remaining.packageSize !== null) ? need : null;
  return (
    <li class={bought ? 'item done' : 'item'}>
      <label>
        <input id={`tick-${i.id}`} type="checkbox" checked={bought} disabled={closed || props.waiting} onChange={props.onTick} />
        <span>
          {i.displayName} <span class="muted">{!bought && inBasket !== '' && show !== '' ? `+${show}` : show}</span>
          {i.suggestedPrice !== null && <span class="muted"> · {m.aboutPrice(kroner(i.suggestedPrice))}</span>}
          {exact !== null && <span class="muted"> · {m.exactNeed(amount(exact, i.unit))}</span>}
          {!bought && inBasket !== '' && <span class="muted"> · {m.alreadyInBasket(inBasket)}</span>}
          {i.haveQuantity > 0 && <span class="muted"> · {m.inPantry(amount(i.haveQuantity, i.unit))}</span>}
          {i.extraQuantity > 0 && (i.reasonCode === 'Planned' || i.reasonCode === 'PartlyInPantry') && <span class="muted"> · {m.addedToLine(amount(i.extraQuantity, i.unit))}</span>}
          {props.waiting && <span class="muted">{show === '' ? ' ' : ' · '}{m.waitingToSend}</span>}
          {reason !== '' && <span class="reason">{reason}</span>}
          {i.addedAfterShopping && <span class="reason">{m.addedAfterShopping}</span>}
        </span>
      </label>
      {((changeable && !edit.editing) || removable) && (
        <span class="line-actions">
          {changeable && !edit.editing && (
            <button type="button" class="link" ref={edit.opener} onClick={edit.open} aria-label={`${m.changeAmount}: ${i.displayName}`}>
              {m.changeAmount}
            </button>
          )}
          {removable && (
            <button type="button" class="link" onClick={props.onRemove} aria-label={`${m.remove}: ${i.displayName}`}>
              {m.remove}
            </button>
          )}
        </span>
      )}
      {changeable && edit.editing && (
        <AmountEditor
          item={i}
          onCancel={edit.close}
          onSave={(q) => {
            edit.close();
            props.onAmount(q);
          }}
        />
      )}
    </li>
  );
}

/** The week changed since the list was made: what it would add, a button to add it, and one to leave it for now. */
export function WeekAsks(props: { wouldAdd: { foodKey: string; unit: string; displayName: string; quantity: number }[]; onApply: () => void; onNotNow: () => void }) {
  const { wouldAdd } = props;
  const m = t.value;
  return (
    <div class="ask" role="region" aria-label={m.weekAsks(wouldAdd.length)}>
      <p>{m.weekAsks(wouldAdd.length)}</p>
      <ul>
        {wouldAdd.map((w) => (
          <li key={`${w.foodKey}/${w.unit}`}>
            {w.displayName} <span class="muted">+{amount(w.quantity, w.unit)}</span>
          </li>
        ))}
      </ul>
      <div class="row">
        <button type="button" onClick={props.onApply}>
          {m.applyChanges}
        </button>
        <button type="button" class="secondary" onClick={props.onNotNow}>
          {m.notNow}
        </button>
      </div>
    </div>
  );
}
