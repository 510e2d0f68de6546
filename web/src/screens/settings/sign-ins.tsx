import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { dayOf } from '../../format';
import { t } from '../../i18n';
import { Problem, useAction } from '../../ui';

type SignIns = Awaited<ReturnType<typeof readSignIns>>;
const readSignIns = () => dataOf(api.GET('/api/v1/me/sign-ins'));

/**
 * How the person signs in: their password, the providers linked to the account (each may be unlinked, but never the
 * last way in), and the configured providers not yet linked (signing in with one links it to this account when the
 * provider gives the same e-mail address).
 */
export function SignInMethods() {
  const m = t.value;
  const [mine, setMine] = useState<SignIns | null>(null);
  const [providers, setProviders] = useState<{ scheme: string; displayName: string }[]>([]);
  const act = useAction();
  useEffect(
    () =>
      void act.run(async () => {
        const [s, p] = await Promise.all([readSignIns(), dataOf(api.GET('/api/v1/auth/providers'))]);
        setMine(s);
        setProviders(p);
      }),
    [],
  );
  const unlink = (issuer: string, subject: string) =>
    act.run(async () => {
      await api.DELETE('/api/v1/me/sign-ins', { params: { query: { issuer, subject } } });
      setMine(await readSignIns());
    });
  if (!mine) return act.error ? <Problem error={act.error} /> : null;
  const linked = new Set(mine.identities.flatMap((i) => (i.provider ? [i.provider.scheme] : [])));
  const nameOf = (i: SignIns['identities'][number]) => i.provider?.displayName ?? new URL(i.issuer).host;
  return (
    <section aria-labelledby="signins-h">
      <h2 id="signins-h">{m.signInMethods}</h2>
      <p>{mine.hasPassword ? m.hasPassword : m.noPassword}</p>
      {mine.identities.length > 0 && (
        <ul class="items">
          {mine.identities.map((i) => (
            <li key={`${i.issuer}|${i.subject}`} class="pantry-row">
              <span>
                {nameOf(i)}
                <span class="reason">{[i.email, m.linkedSince(dayOf(i.linkedAt))].filter(Boolean).join(' · ')}</span>
              </span>
              <button type="button" class="link" disabled={act.busy} onClick={() => void unlink(i.issuer, i.subject)} aria-label={m.unlinkOf(nameOf(i))}>
                {m.unlink}
              </button>
            </li>
          ))}
        </ul>
      )}
      {providers.filter((p) => !linked.has(p.scheme)).length > 0 && (
        <>
          <p class="muted">{m.linkAbout}</p>
          <div class="row">
            {providers
              .filter((p) => !linked.has(p.scheme))
              .map((p) => (
                <a key={p.scheme} class="button secondary" href={`/api/v1/auth/challenge/${encodeURIComponent(p.scheme)}?returnUrl=${encodeURIComponent('/settings/me')}`}>
                  {m.linkWith(p.displayName)}
                </a>
              ))}
          </div>
        </>
      )}
      <Problem error={act.error} />
    </section>
  );
}
