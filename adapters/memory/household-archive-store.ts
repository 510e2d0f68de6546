import { readArchive, writeArchive, type ArchiveStores } from '../../core/transfer/archive.js';
import type { HouseholdArchiveStore } from '../../ports/household-archive.js';

/**
 * The household archive over the in-memory stores (asked for when used: they are made together with it). Nothing runs between its steps in a domain test, so a read is a
 * snapshot; a write that a store refuses part-way keeps what it wrote (the databases' transaction does not).
 */
export function memoryHouseholdArchiveStore(stores: () => ArchiveStores): HouseholdArchiveStore {
  return {
    read: (householdId) => readArchive(stores(), householdId),
    write: (archive) => writeArchive(stores(), archive),
  };
}
