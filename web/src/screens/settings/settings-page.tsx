import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../i18n';
import { AskFirst, Problem, useAction } from '../../ui';

/** The browser's title while a settings page is open ("Meg · Middag"); the app's name again once it closes. */
export function useTitle(title: string) {
  const m = t.value;
  useEffect(() => {
    document.title = `${title} · ${m.appName}`;
    return () => {
      document.title = m.appName;
    };
  }, [title, m]);
}

/** One page of the settings: the way back to their list, its heading, and its parts. */
export function SettingsPage({ title, children }: { title: string; children: ComponentChildren }) {
  const m = t.value;
  useTitle(title);
  return (
    <main id="main" tabIndex={-1}>
      <p class="back-link">
        <a href="/settings">{m.settings}</a>
      </p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

/**
 * Links as large rows (the settings' list, the store page's): each its name, and a line on what is behind it that
 * the link is described by; the whole row is the link's to press.
 */
export function LinkRows({ id, rows }: { id: string; rows: readonly { href: string; name: string; about: string }[] }) {
  return (
    <ul class="link-rows">
      {rows.map((r, i) => (
        <li key={r.href}>
          <a href={r.href} aria-describedby={`${id}-${i}`}>
            {r.name}
          </a>
          <span id={`${id}-${i}`} class="reason">
            {r.about}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * A step that cannot be undone (leaving the household, deleting the account) set apart at a page's end: its heading,
 * its button, then the question it asks first, with why it was refused when it was.
 */
export function DangerStep(props: { id: string; title: string; button: string; question: string; yes: string; onYes: () => Promise<unknown> }) {
  const [asking, setAsking] = useState(false);
  const act = useAction();
  return (
    <section aria-labelledby={`${props.id}-h`} class="danger-zone">
      <h2 id={`${props.id}-h`}>{props.title}</h2>
      {asking ? (
        <AskFirst
          id={`${props.id}-q`}
          question={props.question}
          yes={props.yes}
          danger
          busy={act.busy}
          onYes={() => void act.run(props.onYes)}
          onCancel={() => {
            setAsking(false);
            act.setError(null);
          }}
        >
          <Problem error={act.error} />
        </AskFirst>
      ) : (
        <button type="button" class="secondary" onClick={() => setAsking(true)}>
          {props.button}
        </button>
      )}
    </section>
  );
}
