import { emptyTables } from '../../adapters/memory/stores.js';
import { knexStores, memoryStores, type StoreSet } from '../../bootstrap/stores.js';
import { databaseKinds } from '../support/databases.js';

/** The stores of one backend over one fresh set of tables (the same wiring as the composition roots). */
export interface Stores extends StoreSet {
  close(): Promise<void>;
}

export interface Backend {
  readonly name: string;
  open(): Promise<Stores>;
}

/** memory, SQLite, and Postgres when DATABASE_URL_PG is set: every contract suite runs against each. */
export function backends(): Backend[] {
  return [
    { name: 'memory', open: async () => ({ ...memoryStores(emptyTables()), close: async () => {} }) },
    ...databaseKinds().map((kind) => ({
      name: kind.name,
      async open(): Promise<Stores> {
        const database = await kind.create();
        const db = await database.open();
        return {
          ...knexStores(db.knex),
          async close() {
            await db.close();
            await database.cleanup();
          },
        };
      },
    })),
  ];
}
