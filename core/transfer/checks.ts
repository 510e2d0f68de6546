import type { IdGenerator } from '../../ports/ids.js';
import type { ErrorOf } from '../kernel/errors.js';
import { normalizeFoodKey } from '../kernel/food-key.js';
import type { HouseholdId } from '../kernel/ids.js';

/** Why a document cannot make a household: where (a path into the document) and what. */
export type Invalid = ErrorOf<'household-document-invalid'>;
export const invalid = (path: string, detail: string): Invalid => ({ type: 'household-document-invalid', path, detail });

/** Where an imported part goes: the new household, with a fresh id for every part. */
export interface Into {
  readonly householdId: HouseholdId;
  readonly ids: IdGenerator;
}

/** Fresh ids for one kind of part: each old id is given once, and stands for its new one. */
export interface Renamer {
  /** false when `old` was given before. */
  add(old: string): boolean;
  has(old: string): boolean;
  get(old: string): string;
}

export function renamer(ids: IdGenerator): Renamer {
  const map = new Map<string, string>();
  return {
    add(old: string): boolean {
      if (map.has(old)) return false;
      map.set(old, ids.newId());
      return true;
    },
    has: (old: string) => map.has(old),
    get(old: string): string {
      const id = map.get(old);
      if (id === undefined) throw new Error(`no new id for ${old}`);
      return id;
    },
  };
}

/** normalizeFoodKey of a key the document carries; null when nothing of it is left. */
export const foodKey = (key: string): string | null => {
  const k = normalizeFoodKey(key);
  return k === '' ? null : k;
};
