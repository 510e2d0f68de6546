import type { ComponentChildren, ComponentType, JSX } from 'preact';
import { lazy } from 'preact-iso';
import { useState } from 'preact/hooks';
import { ApiProblem, type RecipeSummary } from '../api';
import { sentenceFor, t } from '../i18n';
import { zoneGroups } from './time-zones';

/** A labelled input; `invalid` marks it for screen readers and shows the sentence beside it. */
export function Field(props: { label: string; name: string; invalid?: string | null } & JSX.InputHTMLAttributes<HTMLInputElement>) {
  const { label, name, invalid, ...input } = props;
  const id = `f-${name}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} name={name} aria-invalid={invalid ? 'true' : undefined} aria-describedby={invalid ? `${id}-err` : undefined} {...input} />
      {invalid && (
        <p id={`${id}-err`} class="field-error">
          {invalid}
        </p>
      )}
    </div>
  );
}

/** A few short choices side by side as radio buttons (a member's age group, a token's scope), with a hint under them. */
export function ChoiceRow<T extends string>(props: { id: string; name: string; legend: string; choices: readonly T[]; label: (choice: T) => ComponentChildren; value: T; onChange: (choice: T) => void; hint: string }) {
  return (
    <fieldset class="choice-row" aria-describedby={`${props.id}-hint`}>
      <legend>{props.legend}</legend>
      {props.choices.map((c) => (
        <label key={c} class="check">
          <input type="radio" name={props.name} value={c} checked={props.value === c} onChange={() => props.onChange(c)} />
          {props.label(c)}
        </label>
      ))}
      <p id={`${props.id}-hint`} class="muted">
        {props.hint}
      </p>
    </fieldset>
  );
}

/** A failed call's sentence, announced as it appears. */
export function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="problem" role="alert">
      {sentenceFor(error)}
    </p>
  );
}

export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <main id="main" tabIndex={-1}>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

/** Runs a call, keeping whether it is under way and the error it gave (cleared on the next try). */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

/** A call under way or failed, as `useAction` keeps it. */
export type Action = ReturnType<typeof useAction>;

/**
 * A form that makes one call when sent: its fields, the sentence of the last failure, what came of the last try
 * (`status`), and its one button, off while the call is under way. `onSubmit` gets the form (to empty a file box).
 */
export function ActionForm(props: { action: Action; button: string; onSubmit: (form: HTMLFormElement) => Promise<unknown>; status?: ComponentChildren; children: ComponentChildren }) {
  const submit = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    void props.action.run(() => props.onSubmit(form));
  };
  return (
    <form onSubmit={submit} class="stack">
      {props.children}
      <Problem error={props.action.error} />
      {props.status}
      <button type="submit" disabled={props.action.busy}>
        {props.button}
      </button>
    </form>
  );
}

/** A labelled choice among the household's recipes, whose first choice (`none`) is no recipe. */
export function RecipeSelect(props: { id: string; label: string; none: string; recipes: readonly Pick<RecipeSummary, 'id' | 'title'>[]; value: string; onChange: (recipeId: string) => void; required?: boolean; disabled?: boolean }) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} required={props.required} value={props.value} disabled={props.disabled} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">{props.none}</option>
        {props.recipes.map((r) => (
          <option key={r.id} value={r.id}>
            {r.title}
          </option>
        ))}
      </select>
    </>
  );
}

/** The names of the fields an error named (validation_failed says which). */
export const fieldsOf = (error: unknown): readonly string[] => (error as { fields?: readonly string[] } | null)?.fields ?? [];

/** A search row: a labelled box and its button; `onSearch` gets the text as typed. */
export function SearchForm({ id, label, button, value, onInput, onSearch }: { id: string; label: string; button: string; value: string; onInput: (v: string) => void; onSearch: (v: string) => void }) {
  return (
    <form
      role="search"
      class="row"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(value);
      }}
    >
      <label for={id} class="visually-hidden">
        {label}
      </label>
      <input id={id} type="search" placeholder={label} maxLength={200} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
      <button type="submit">{button}</button>
    </form>
  );
}

/**
 * A screen (or a large part of one) loaded the first time it is opened, so that the first load carries little. A
 * chunk that cannot be fetched (no network, and not yet kept by the service worker) is said as a sentence, with a
 * button that opens the app again.
 */
export function screen<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> & { preload(): Promise<unknown> } {
  return lazy(() => load().catch(() => Unreachable as ComponentType<P>));
}

function Unreachable() {
  return (
    <main id="main">
      <Problem error={new ApiProblem(0, 'network')} />
      <button type="button" onClick={() => window.location.reload()}>
        {t.value.tryAgain}
      </button>
    </main>
  );
}

/** The household's language and time zone, as the create and settings forms ask for them. */
export function LanguageAndZone(props: { id: string; language: 'nb' | 'en'; onLanguage: (l: 'nb' | 'en') => void; zone: string; zones: readonly string[]; onZone: (z: string) => void }) {
  const m = t.value;
  // The zone the form opened with (the household's, or the browser's for a new one) stays first while others are tried.
  const [own] = useState(props.zone);
  return (
    <>
      <div class="field">
        <label for={`${props.id}-language`}>{m.language}</label>
        <select id={`${props.id}-language`} value={props.language} onChange={(e) => props.onLanguage(e.currentTarget.value as 'nb' | 'en')}>
          <option value="nb">Norsk bokmål</option>
          <option value="en">English</option>
        </select>
      </div>
      {props.zones.length > 0 ? (
        <div class="field">
          <label for={`${props.id}-zone`}>{m.timeZone}</label>
          <select id={`${props.id}-zone`} value={props.zone} onChange={(e) => props.onZone(e.currentTarget.value)}>
            {zoneGroups(props.zones, own, props.language).map((g) => (
              <optgroup key={g.label} label={g.label}>
                {g.zones.map((z) => (
                  <option key={z.zone} value={z.zone}>
                    {z.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
      ) : (
        <Field label={m.timeZone} name={`${props.id}-zone`} required value={props.zone} onInput={(e) => props.onZone(e.currentTarget.value)} />
      )}
    </>
  );
}

/** A form of its own on a settings page: its heading, its fields, its one button, and what came of the last try. */
export function SettingsForm(props: { id: string; title: string; button: string; done: string | null; onSubmit: () => Promise<unknown>; children: ComponentChildren; intro?: ComponentChildren }) {
  const act = useAction();
  const [done, setDone] = useState(false);
  const submit = async () => {
    setDone(false);
    await props.onSubmit();
    setDone(true);
  };
  return (
    <section aria-labelledby={`${props.id}-h`}>
      <h2 id={`${props.id}-h`}>{props.title}</h2>
      {props.intro}
      <ActionForm action={act} button={props.button} onSubmit={submit} status={done && props.done && <p role="status">{props.done}</p>}>
        {props.children}
      </ActionForm>
    </section>
  );
}

/** The second press an action that cannot be undone asks for: the question, the yes, and a way back. */
export function AskFirst(props: { id: string; question: string; yes: string; danger?: boolean; busy: boolean; onYes: () => void; onCancel: () => void; children?: ComponentChildren }) {
  return (
    <div class="ask" role="alertdialog" aria-labelledby={props.id}>
      <p id={props.id}>{props.question}</p>
      <div class="row">
        <button type="button" class={props.danger ? 'danger' : undefined} disabled={props.busy} onClick={props.onYes}>
          {props.yes}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          {t.value.cancel}
        </button>
      </div>
      {props.children}
    </div>
  );
}
