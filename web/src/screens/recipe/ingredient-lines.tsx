import { t } from '../../i18n';
import { Problem } from '../../ui';
import type { FormChange, Row } from './recipe-form';

/** Where an imported line was read: its original text is shown as on the page, in the text or in the picture. */
export type LineOrigin = 'page' | 'text' | 'picture';

const UNITS = ['g', 'kg', 'dl', 'l', 'ml', 'ss', 'ts', 'stk', 'pk', 'boks'];

/**
 * The recipe's ingredient lines as fields, and the box for lines typed or pasted (read by the service). `invalid`
 * says whether the service named a line's field (`quantity`, `displayName`) in its last answer.
 */
export function IngredientLines(props: {
  rows: readonly Row[];
  origin?: LineOrigin;
  quick: string;
  change: (c: FormChange) => void;
  invalid: (line: number, field: 'quantity' | 'displayName') => boolean;
  onReadLines: () => void;
  reading: { busy: boolean; error: unknown };
}) {
  const m = t.value;
  const { rows, change, invalid } = props;
  return (
    <fieldset class="lines">
      <legend>{m.ingredientsHeading}</legend>
      {rows.length === 0 && <p class="muted">{m.noIngredients}</p>}
      <ol class="lines">
        {rows.map((r, i) => (
          <LineFields key={r.key} row={r} origin={props.origin ?? 'page'} change={change} quantityInvalid={invalid(i, 'quantity')} foodInvalid={invalid(i, 'displayName')} />
        ))}
      </ol>
      <datalist id="units">
        {UNITS.map((u) => (
          <option key={u} value={u} />
        ))}
      </datalist>
      <div class="field">
        <label for="f-quick">{m.addIngredients}</label>
        <textarea id="f-quick" rows={2} value={props.quick} onInput={(e) => change({ type: 'field', field: 'quick', value: e.currentTarget.value })} />
      </div>
      <p>
        <button type="button" onClick={props.onReadLines} disabled={props.reading.busy}>
          {m.addLines}
        </button>
      </p>
      <Problem error={props.reading.error} />
    </fieldset>
  );
}

function LineFields({ row: r, origin, change, quantityInvalid, foodInvalid }: { row: Row; origin: LineOrigin; change: (c: FormChange) => void; quantityInvalid: boolean; foodInvalid: boolean }) {
  const m = t.value;
  const edit = (patch: Extract<FormChange, { type: 'line' }>['patch']) => change({ type: 'line', key: r.key, patch });
  return (
    <li class={r.check !== undefined ? 'line check' : 'line'} aria-describedby={r.check !== undefined ? `c-${r.key}` : undefined}>
      {r.check !== undefined && (
        <p id={`c-${r.key}`} class="from-page">
          {origin === 'picture' ? m.fromPicture(r.check) : origin === 'text' ? m.fromText(r.check) : m.fromPage(r.check)}
        </p>
      )}
      <div class="line-fields">
        <div class="field amount">
          <label for={`q-${r.key}`}>{m.amount}</label>
          <input id={`q-${r.key}`} inputMode="decimal" value={r.quantity} aria-invalid={quantityInvalid ? 'true' : undefined} onInput={(e) => edit({ quantity: e.currentTarget.value })} />
        </div>
        <div class="field unit">
          <label for={`u-${r.key}`}>{m.unit}</label>
          <input id={`u-${r.key}`} list="units" maxLength={32} value={r.unit} onInput={(e) => edit({ unit: e.currentTarget.value })} />
        </div>
        <div class="field food">
          <label for={`n-${r.key}`}>{m.food}</label>
          <input id={`n-${r.key}`} required maxLength={200} value={r.displayName} aria-invalid={foodInvalid ? 'true' : undefined} onInput={(e) => edit({ displayName: e.currentTarget.value })} />
        </div>
      </div>
      {(quantityInvalid || foodInvalid) && <p class="field-error">{quantityInvalid ? m.amountInvalid : m.foodInvalid}</p>}
      <div class="row">
        <label class="check">
          <input type="checkbox" checked={r.optional} onChange={(e) => edit({ optional: e.currentTarget.checked })} />
          {m.optional}
        </label>
        <button type="button" class="link" onClick={() => change({ type: 'removeLine', key: r.key })} aria-label={`${m.remove}: ${r.displayName || m.food}`}>
          {m.remove}
        </button>
      </div>
    </li>
  );
}
