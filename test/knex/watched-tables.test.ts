import { expect } from 'chai';
import { INPUTS } from '../../adapters/knex/migrations/0016_household_revisions.js';
import { CACHED_TABLES as MIGRATED_CACHED_TABLES, CACHED_TABLES_CHANNEL as MIGRATED_CACHED_CHANNEL } from '../../adapters/knex/migrations/0026_cached_tables.js';
import { INSERT_CHANGES_NOTHING } from '../../adapters/knex/migrations/0027_cached_tables_inserts.js';
import { HOUSEHOLD_CHANGES_CHANNEL as MIGRATED_HOUSEHOLD_CHANNEL, LIST_STATE_TABLES as MIGRATED_LIST_STATE } from '../../adapters/knex/migrations/0028_household_changes.js';
import {
  CACHED_TABLES,
  CACHED_TABLES_CHANNEL,
  HOUSEHOLD_CHANGES_CHANNEL,
  INSERTS_CHANGE_NOTHING,
  LIST_INPUT_TABLES,
  LIST_STATE_TABLES,
} from '../../adapters/knex/speed/watched-tables.js';
import { scopeWritten } from '../../adapters/knex/speed/read-cache.js';

// The speed layer declares what it watches; the migrations' triggers announce it. They must name the same tables,
// or a write the layer does not hear of would leave a stale value in memory.
describe('the tables the speed layer watches', () => {
  it('are the tables whose triggers announce a change to the cached values', () => {
    expect(CACHED_TABLES).to.have.members([...MIGRATED_CACHED_TABLES]);
    expect(INSERTS_CHANGE_NOTHING).to.have.members([...INSERT_CHANGES_NOTHING]);
    expect(CACHED_TABLES_CHANNEL).to.equal(MIGRATED_CACHED_CHANNEL);
  });

  it('are the tables whose triggers move a household\'s revision or announce its list\'s state', () => {
    expect(LIST_INPUT_TABLES).to.have.members(INPUTS.map((i) => i.table));
    expect(LIST_STATE_TABLES).to.have.members([...MIGRATED_LIST_STATE]);
    expect(HOUSEHOLD_CHANGES_CHANNEL).to.equal(MIGRATED_HOUSEHOLD_CHANNEL);
  });

  it('decide what a statement may change: everything, a household\'s values, or nothing', () => {
    expect(scopeWritten('update "sessions" set "expires_at" = ?')).to.equal('all');
    expect(scopeWritten('insert into "sessions" ("id") values (?)')).to.equal(null);
    expect(scopeWritten('insert into "household_members" ("id") values (?)')).to.equal('all');
    expect(scopeWritten('insert into "pantry_observations" ("id") values (?)')).to.equal('households');
    expect(scopeWritten('update "shopping_lists" set "version" = ?')).to.equal('households');
    expect(scopeWritten('select * from "sessions"')).to.equal(null);
    expect(scopeWritten('delete from "feedback"')).to.equal(null);
  });
});
