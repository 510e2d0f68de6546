import { t } from '../../i18n';

/** What the cook should know when serving the day's dish (the guests' avoids, a busy evening, dietary notes), as the service words it. */
export function ServingNotes({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <ul class="notes" aria-label={t.value.servingNotes}>
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}
