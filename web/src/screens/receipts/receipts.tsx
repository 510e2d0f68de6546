import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, api, dataOf } from '../../api';
import { dayOf } from '../../format';
import { t } from '../../i18n';
import { Field, Page, Problem, useAction } from '../../ui';

type Receipts = Awaited<ReturnType<typeof readReceipts>>;
type Classification = Awaited<ReturnType<typeof readClassification>>;
const readReceipts = (householdId: string, cursor: string | null) =>
  dataOf(api.GET('/api/v1/households/{householdId}/receipts', { params: { path: { householdId }, query: { limit: '20', ...(cursor ? { cursor } : {}) } } }));
const readClassification = (householdId: string) => dataOf(api.GET('/api/v1/households/{householdId}/shopping/purchase-classification', { params: { path: { householdId }, query: {} } }));

/** One line of a receipt as typed: a product, how many, and what it cost in all (blank: not known). */
interface Line {
  productName: string;
  quantity: string;
  totalPrice: string;
}
const emptyLine = (): Line => ({ productName: '', quantity: '1', totalPrice: '' });

/**
 * The household's receipts: typed in after a shopping trip (the chain, when, and the lines), listed newest first with
 * how many lines the food table recognised, and what they say about how processed the food the household buys is.
 */
export function Receipts({ householdId }: { householdId: string }) {
  const m = t.value;
  const [page, setPage] = useState<Receipts | null>(null);
  const [classification, setClassification] = useState<Classification | null>(null);
  const act = useAction();
  const load = async () => {
    const [r, c] = await Promise.all([readReceipts(householdId, null), readClassification(householdId)]);
    setPage(r);
    setClassification(c);
  };
  useEffect(() => void act.run(load), [householdId]);
  const more = () =>
    act.run(async () => {
      const next = await readReceipts(householdId, page!.nextCursor);
      setPage({ ...next, items: [...page!.items, ...next.items] });
    });
  return (
    <Page title={m.receipts}>
      <p class="muted">{m.receiptsAbout}</p>
      <NewReceipt householdId={householdId} onSaved={() => void act.run(load)} />
      <Problem error={act.error} />
      {classification && classification.linesRecognised > 0 && (
        <section aria-labelledby="processing-h">
          <h2 id="processing-h">{m.processingTitle(classification.days)}</h2>
          <p>{m.processingSummary(classification.linesRecognised, classification.heavilyProcessed, classification.processed, classification.lightlyProcessed)}</p>
        </section>
      )}
      {page && page.items.length === 0 && <p>{m.noReceipts}</p>}
      {page && page.items.length > 0 && (
        <section aria-labelledby="receipts-h">
          <h2 id="receipts-h">{m.receiptsSaved(page.total)}</h2>
          <ul class="items">
            {page.items.map((r) => (
              <li key={r.id} class="pantry-row">
                <span>
                  {r.chain}
                  <span class="reason">
                    {dayOf(r.purchasedAt)} · {m.linesRecognised(r.linesRecognised, r.linesTotal)}
                  </span>
                </span>
              </li>
            ))}
          </ul>
          {page.nextCursor && (
            <button type="button" class="secondary" disabled={act.busy} onClick={() => void more()}>
              {m.showMore}
            </button>
          )}
        </section>
      )}
    </Page>
  );
}

function NewReceipt({ householdId, onSaved }: { householdId: string; onSaved: () => void }) {
  const m = t.value;
  const [chain, setChain] = useState('');
  const [date, setDate] = useState(() => new Date().toISOString().slice(0, 10));
  const [lines, setLines] = useState<Line[]>([emptyLine()]);
  const [saved, setSaved] = useState<string | null>(null);
  const act = useAction();
  const set = (i: number, change: Partial<Line>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...change } : l)));
  const number = (s: string) => Number(s.trim().replace(',', '.'));
  const submit = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      const typed = lines.filter((l) => l.productName.trim() !== '');
      const bad = typed.findIndex((l) => !(number(l.quantity) > 0) || (l.totalPrice.trim() !== '' && !(number(l.totalPrice) >= 0)));
      if (bad >= 0) throw new ApiProblem(400, 'validation_failed', ['quantity']);
      const answer = await dataOf(
        api.POST('/api/v1/households/{householdId}/receipts', {
          params: { path: { householdId } },
          body: {
            // Noon on the day, so the date stays the day whatever the time zone.
            purchasedAt: `${date}T12:00:00.000Z`,
            chain: chain.trim(),
            lines: typed.map((l) => ({ productName: l.productName.trim(), ean: null, quantity: number(l.quantity), unitPrice: null, totalPrice: l.totalPrice.trim() === '' ? null : number(l.totalPrice) })),
          },
        }),
      );
      setSaved(m.receiptSaved(answer.linesRecognised, answer.linesTotal));
      setLines([emptyLine()]);
      onSaved();
    });
  };
  return (
    <details class="have" open={act.error !== null}>
      <summary>{m.newReceipt}</summary>
      <form onSubmit={submit} class="stack">
        <div class="row">
          <Field label={m.chain} name="receipt-chain" required maxLength={100} value={chain} onInput={(e) => setChain(e.currentTarget.value)} />
          <Field label={m.date} name="receipt-date" type="date" required value={date} onInput={(e) => setDate(e.currentTarget.value)} />
        </div>
        <ol class="receipt-lines">
          {lines.map((l, i) => (
            <li key={i} class="row">
              <Field label={m.product} name={`receipt-product-${i}`} maxLength={200} value={l.productName} onInput={(e) => set(i, { productName: e.currentTarget.value })} />
              <Field label={m.howMany} name={`receipt-qty-${i}`} inputMode="decimal" value={l.quantity} onInput={(e) => set(i, { quantity: e.currentTarget.value })} />
              <Field label={m.paid} name={`receipt-price-${i}`} inputMode="decimal" value={l.totalPrice} onInput={(e) => set(i, { totalPrice: e.currentTarget.value })} />
            </li>
          ))}
        </ol>
        <button type="button" class="secondary" onClick={() => setLines((ls) => [...ls, emptyLine()])}>
          {m.addLine}
        </button>
        <Problem error={act.error} />
        {saved && <p role="status">{saved}</p>}
        <button type="submit" disabled={act.busy}>
          {m.saveReceipt}
        </button>
      </form>
    </details>
  );
}
