import type { TimeZoneCatalog } from '../../ports/time-zones.js';

/** Every zone id the runtime's ICU knows, plus UTC (which Intl accepts but does not list). */
export function intlTimeZones(): TimeZoneCatalog {
  const ids = [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])];
  const set = new Set(ids);
  return { ids: () => ids, has: (id) => set.has(id) };
}
