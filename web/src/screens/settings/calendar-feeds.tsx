import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { momentOf } from '../../format';
import { t } from '../../i18n';
import { ActionForm, Field, Problem, useAction } from '../../ui';

type Feed = Awaited<ReturnType<typeof readFeeds>>[number];
const readFeeds = (householdId: string) => dataOf(api.GET('/api/v1/households/{householdId}/calendar-feeds', { params: { path: { householdId } } }));

/**
 * The calendars whose events make an evening busy on the week: an adult subscribes to a calendar's ICS address
 * (checked by the service's outbound guard, whose refusal is said as a sentence) and removes one; phones push their
 * own calendars, listed here with when they last did. Each feed says whether it could be read the last time.
 */
export function CalendarFeeds({ householdId, adult }: { householdId: string; adult: boolean }) {
  const m = t.value;
  const [feeds, setFeeds] = useState<Feed[] | null>(null);
  const [unreadable, setUnreadable] = useState<ReadonlySet<string>>(new Set());
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const act = useAction();
  const adding = useAction();
  const path = { params: { path: { householdId } } };
  const load = async () => {
    const [f, events] = await Promise.all([readFeeds(householdId), dataOf(api.GET('/api/v1/households/{householdId}/calendar-events', path))]);
    setFeeds(f);
    setUnreadable(new Set(events.feeds.filter((e) => e.error !== null).map((e) => e.feedId)));
  };
  useEffect(() => void act.run(load), [householdId]);
  const add = async () => {
    await api.POST('/api/v1/households/{householdId}/calendar-feeds', { ...path, body: { name: name.trim(), url: url.trim() } });
    setName('');
    setUrl('');
    await load();
  };
  const remove = (f: Feed) =>
    act.run(async () => {
      await api.DELETE('/api/v1/households/{householdId}/calendar-feeds/{feedId}', { params: { path: { householdId, feedId: f.id } } });
      await load();
    });
  return (
    <section aria-labelledby="feeds-h">
      <h2 id="feeds-h">{m.calendarFeeds}</h2>
      <p class="muted">{m.calendarFeedsAbout}</p>
      {feeds && feeds.length === 0 && <p>{m.noCalendarFeeds}</p>}
      {feeds && feeds.length > 0 && (
        <ul class="items">
          {feeds.map((f) => (
            <li key={f.id} class="pantry-row">
              <span>
                {f.name}
                <span class="reason">
                  {f.kind === 'Device' ? m.feedFromPhone(f.eventCount ?? 0, f.syncedAt ? momentOf(f.syncedAt) : null) : f.url}
                  {unreadable.has(f.id) && <span class="problem"> · {m.feedUnreadable}</span>}
                </span>
              </span>
              {adult && (f.kind !== 'Device' || f.isMine) && (
                <button type="button" class="link" disabled={act.busy} onClick={() => void remove(f)} aria-label={`${m.remove}: ${f.name}`}>
                  {m.remove}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Problem error={act.error} />
      {adult && (
        <ActionForm action={adding} button={m.addCalendarFeed} onSubmit={add}>
          <Field label={m.feedName} name="feed-name" required maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <Field label={m.feedUrl} name="feed-url" inputMode="url" required maxLength={2048} placeholder="https://" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </ActionForm>
      )}
    </section>
  );
}
