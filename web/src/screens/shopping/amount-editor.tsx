import { useEffect, useRef, useState } from 'preact/hooks';
import type { ShoppingItem } from '../../api';
import { amount, unitName } from '../../format';
import { locale, t } from '../../i18n';
import { needOf } from './use-shopping-list';

/** The most the service takes as an amount on a line (SHOPPING_QUANTITY_MAX in core/shopping/types.ts). */
const MOST = 100_000;

/** A number as a person writes it, with a decimal comma or point ("1,5", "1.5"); null when it is none. */
function numberOf(text: string): number | null {
  const s = text.trim().replace(',', '.');
  const n = Number(s);
  return s === '' || !Number.isFinite(n) ? null : n;
}

/**
 * How much of a line is in the basket, said by the shopper in the line's unit ("4" dl of 6 dl): a field that opens
 * with what is there already, written as the language writes numbers but without grouping, so that it reads back.
 * A value that is not above 0 and at most what the service takes gets a sentence instead of a request; Escape and
 * "Avbryt" close it unchanged. Focus starts in the field; where it goes after is the line's business.
 */
export function AmountEditor(props: { item: ShoppingItem; onSave: (purchasedQuantity: number) => void; onCancel: () => void }) {
  const { item: i } = props;
  const m = t.value;
  const id = `amount-${i.id}`;
  // What is in the basket in another unit (one that does not convert) is not this line's amount: the field starts empty.
  const start = i.purchasedQuantity > 0 && i.purchasedUnit === null ? i.purchasedQuantity.toLocaleString(locale(), { useGrouping: false, maximumFractionDigits: 2 }) : '';
  const [text, setText] = useState(start);
  const [wrong, setWrong] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);

  const save = (e: Event) => {
    e.preventDefault();
    const q = numberOf(text);
    if (q === null || q <= 0 || q > MOST) {
      setWrong(true);
      field.current?.focus();
      return;
    }
    props.onSave(q);
  };
  const escape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    props.onCancel();
  };
  return (
    <form class="amount-editor" onSubmit={save} onKeyDown={escape} noValidate>
      <label for={id}>{m.howMuchInBasket(i.displayName)}</label>
      <p class="muted" id={`${id}-need`}>
        {m.listNeeds(amount(needOf(i), i.unit))}
      </p>
      <div class="amount-row">
        <span class="amount-field">
          <input
            id={id}
            ref={field}
            inputMode="decimal"
            autoComplete="off"
            value={text}
            aria-invalid={wrong ? 'true' : undefined}
            aria-describedby={`${id}-unit ${id}-need${wrong ? ` ${id}-error` : ''}`}
            onInput={(e) => {
              setText(e.currentTarget.value);
              setWrong(false);
            }}
          />
          <span id={`${id}-unit`}>{unitName(i.unit)}</span>
        </span>
        <button type="submit">{m.save}</button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          {m.cancel}
        </button>
      </div>
      {wrong && (
        <p class="field-error" id={`${id}-error`} role="alert">
          {m.amountInBasketInvalid}
        </p>
      )}
    </form>
  );
}
