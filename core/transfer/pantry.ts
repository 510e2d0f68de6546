import { normalizeUnit } from '../food/units.js';
import type { PantryMerge, PantryMergeRejection, PantryObservation, UnitWeight } from '../pantry/types.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { foodKey, invalid, renamer, type Into, type Invalid, type Renamer } from './checks.js';
import type { HouseholdDocument } from './document.js';

type PantryDocument = HouseholdDocument['pantry'];

export interface PantryIn {
  readonly observations: readonly PantryObservation[];
  readonly merges: readonly PantryMerge[];
  readonly rejections: readonly PantryMergeRejection[];
  readonly unitWeights: readonly UnitWeight[];
  readonly observationIds: Renamer;
}

/** Each row checked in turn: the rows as they go in, or the failure of the first row that fails. */
function eachRow<D, T>(rows: readonly D[], check: (row: D, i: number) => Result<T, Invalid>): Result<T[], Invalid> {
  const checked: T[] = [];
  for (const [i, row] of rows.entries()) {
    const one = check(row, i);
    if (!one.ok) return one;
    checked.push(one.value);
  }
  return ok(checked);
}

/** A test that each key is given once: true the first time a key is seen, false ever after. */
function firstTime(): (key: string) => boolean {
  const seen = new Set<string>();
  return (key) => {
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}

function checkObservations(doc: PantryDocument['observations'], into: Into, observationIds: Renamer): Result<PantryObservation[], Invalid> {
  return eachRow(doc, (o, i) => {
    if (!observationIds.add(o.id)) return fail(invalid(`pantry.observations.${i}.id`, 'this id is given twice'));
    const key = foodKey(o.foodKey);
    if (key === null) return fail(invalid(`pantry.observations.${i}.foodKey`, 'needs a letter or a digit'));
    return ok({ ...o, id: observationIds.get(o.id), householdId: into.householdId, foodKey: key });
  });
}

/** A food is merged once, never into itself, and never into a food that is merged into another itself. */
function checkMerges(doc: PantryDocument['merges'], into: Into): Result<PantryMerge[], Invalid> {
  const firstMerge = firstTime();
  const merges = eachRow(doc, (m, i) => {
    const from = foodKey(m.fromKey);
    const to = foodKey(m.toKey);
    if (from === null || to === null) return fail(invalid(`pantry.merges.${i}`, 'a key needs a letter or a digit'));
    if (from === to) return fail(invalid(`pantry.merges.${i}`, 'a food is not merged into itself'));
    if (!firstMerge(from)) return fail(invalid(`pantry.merges.${i}.fromKey`, 'this food is merged twice'));
    return ok({ ...m, householdId: into.householdId, fromKey: from, toKey: to });
  });
  if (!merges.ok) return merges;
  const mergedFrom = new Set(merges.value.map((m) => m.fromKey));
  const onward = merges.value.findIndex((m) => mergedFrom.has(m.toKey));
  return onward >= 0 ? fail(invalid(`pantry.merges.${onward}.toKey`, 'this food is merged into another itself')) : merges;
}

/** A rejected pair is two different foods, kept in key order, given once. */
function checkRejections(doc: PantryDocument['rejections'], into: Into): Result<PantryMergeRejection[], Invalid> {
  const firstPair = firstTime();
  return eachRow(doc, (r, i) => {
    const a = foodKey(r.keyA);
    const b = foodKey(r.keyB);
    if (a === null || b === null || a === b) return fail(invalid(`pantry.rejections.${i}`, 'two different foods, each with a letter or a digit'));
    const [keyA, keyB, keyADisplayName, keyBDisplayName] = a < b ? [a, b, r.keyADisplayName, r.keyBDisplayName] : [b, a, r.keyBDisplayName, r.keyADisplayName];
    if (!firstPair(`${keyA}\n${keyB}`)) return fail(invalid(`pantry.rejections.${i}`, 'this pair is given twice'));
    return ok({ householdId: into.householdId, keyA, keyB, keyADisplayName, keyBDisplayName, decidedAt: r.decidedAt });
  });
}

/** A unit weight per food and unit, once. */
function checkUnitWeights(doc: PantryDocument['unitWeights'], into: Into): Result<UnitWeight[], Invalid> {
  const firstWeight = firstTime();
  return eachRow(doc, (w, i) => {
    const key = foodKey(w.foodKey);
    const unit = normalizeUnit(w.unit);
    if (key === null || unit === '') return fail(invalid(`pantry.unitWeights.${i}`, 'needs a food key and a unit'));
    if (!firstWeight(`${key}\n${unit}`)) return fail(invalid(`pantry.unitWeights.${i}`, 'this food and unit are given twice'));
    return ok({ ...w, householdId: into.householdId, foodKey: key, unit });
  });
}

/** The pantry: food keys and units normalized as every write does. */
export function checkPantry(doc: PantryDocument, into: Into): Result<PantryIn, Invalid> {
  const observationIds = renamer(into.ids);
  const observations = checkObservations(doc.observations, into, observationIds);
  if (!observations.ok) return observations;
  const merges = checkMerges(doc.merges, into);
  if (!merges.ok) return merges;
  const rejections = checkRejections(doc.rejections, into);
  if (!rejections.ok) return rejections;
  const unitWeights = checkUnitWeights(doc.unitWeights, into);
  if (!unitWeights.ok) return unitWeights;
  return ok({ observations: observations.value, observationIds, merges: merges.value, rejections: rejections.value, unitWeights: unitWeights.value });
}
