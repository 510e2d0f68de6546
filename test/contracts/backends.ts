import type { AccountStore, SessionStore } from '../../ports/account-store.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import { emptyTables, memoryAccountStore, memoryHouseholdStore, memorySessionStore } from '../../adapters/memory/stores.js';
import { knexAccountStore, knexSessionStore } from '../../adapters/knex/account-store.js';
import { knexHouseholdStore } from '../../adapters/knex/household-store.js';
import { databaseKinds } from '../support/databases.js';

/** The stores of one backend over one fresh set of tables. */
export interface Stores {
  accounts: AccountStore;
  sessions: SessionStore;
  households: HouseholdStore;
  close(): Promise<void>;
}

export interface Backend {
  readonly name: string;
  open(): Promise<Stores>;
}

/** memory, SQLite, and Postgres when DATABASE_URL_PG is set: every contract suite runs against each. */
export function backends(): Backend[] {
  return [
    {
      name: 'memory',
      async open() {
        const t = emptyTables();
        return { accounts: memoryAccountStore(t), sessions: memorySessionStore(t), households: memoryHouseholdStore(t), close: async () => {} };
      },
    },
    ...databaseKinds().map((kind) => ({
      name: kind.name,
      async open(): Promise<Stores> {
        const database = await kind.create();
        const db = await database.open();
        return {
          accounts: knexAccountStore(db.knex),
          sessions: knexSessionStore(db.knex),
          households: knexHouseholdStore(db.knex),
          async close() {
            await db.close();
            await database.cleanup();
          },
        };
      },
    })),
  ];
}
