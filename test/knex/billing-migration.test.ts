import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase } from '../../adapters/knex/database.js';
import { knexBillingStore } from '../../adapters/knex/billing-store.js';
import { migrationSource, migrations, type Migration } from '../../adapters/knex/migrations/index.js';
import { databaseKinds } from '../support/databases.js';

const before0030: Knex.MigrationSource<Migration> = {
  ...migrationSource,
  getMigrations: async () => migrations.slice(0, migrations.findIndex((m) => m.name === '0030_billing_event_kinds')),
};

for (const kind of databaseKinds()) {
  describe(`migration 0030: the type and status of each event that wrote a subscription's part [${kind.name}]`, () => {
    it('fills them in from billing_events for rows written before it; the status only where the event also wrote the status', async () => {
      const database = await kind.create({ empty: true });
      const db = openDatabase(database.target, database.schema ? { schema: database.schema } : {});
      try {
        await db.knex.migrate.latest({ migrationSource: before0030 });
        const at = (s: number) => new Date(Date.UTC(2026, 2, 1, 10, 0, s)).toISOString();
        await db.knex('billing_events').insert([
          { id: 'evt_checkout', type: 'checkout.session.completed', created_at: at(0), subscription_id: 'sub_1', received_at: at(0) },
          { id: 'evt_failed', type: 'invoice.payment_failed', created_at: at(1), subscription_id: 'sub_1', received_at: at(1) },
          { id: 'evt_deleted', type: 'customer.subscription.deleted', created_at: at(2), subscription_id: 'sub_1', received_at: at(2) },
          { id: 'evt_active', type: 'customer.subscription.updated', created_at: at(2), subscription_id: 'sub_2', received_at: at(2) },
          { id: 'evt_updated', type: 'customer.subscription.updated', created_at: at(3), subscription_id: 'sub_2', received_at: at(3) },
        ]);
        await db.knex('billing_subscriptions').insert([
          {
            subscription_id: 'sub_1',
            household_id: null,
            ...{ household_at: at(0), household_event: 'evt_checkout' },
            ...{ plan: 'Free', plan_at: at(2), plan_event: 'evt_deleted' },
            ...{ status: 'canceled', status_at: at(2), status_event: 'evt_deleted' },
            ...{ payment_failing: false, payment_failing_at: at(2), payment_failing_event: 'evt_deleted' },
            ...{ last_event_at: at(2), last_event: 'evt_deleted', updated_at: at(2) },
          },
          {
            subscription_id: 'sub_2',
            ...{ household_id: null, household_at: null, household_event: null },
            ...{ plan: 'Plus', plan_at: at(2), plan_event: 'evt_active' },
            ...{ status: 'incomplete', status_at: at(3), status_event: 'evt_updated' },
            ...{ payment_failing: true, payment_failing_at: at(1), payment_failing_event: 'evt_failed' },
            ...{ last_event_at: at(3), last_event: 'evt_updated', updated_at: at(3) },
          },
        ]);
        // No household is linked (none needs to exist), so the household stamp is seen in its columns.
        await db.migrate();
        const row = await db.knex('billing_subscriptions').where({ subscription_id: 'sub_1' }).first();
        expect([row.household_event_type, row.household_event_status]).to.deep.equal(['checkout.session.completed', null]);
        const store = knexBillingStore(db.knex);
        const one = (await store.subscription('sub_1'))!;
        expect(one.plan!.by).to.deep.include({ type: 'customer.subscription.deleted', status: 'canceled' });
        expect(one.status!.by).to.deep.include({ type: 'customer.subscription.deleted', status: 'canceled' });
        expect(one.paymentFailing!.by).to.deep.include({ type: 'customer.subscription.deleted', status: 'canceled' });
        expect(one.lastEvent).to.deep.include({ type: 'customer.subscription.deleted', status: 'canceled' });
        const two = (await store.subscription('sub_2'))!;
        // The update that set the plan was not the one that set the status: its status is not known.
        expect(two.plan!.by).to.deep.include({ type: 'customer.subscription.updated', status: null });
        expect(two.status!.by).to.deep.include({ type: 'customer.subscription.updated', status: 'incomplete' });
        expect(two.paymentFailing!.by).to.deep.include({ type: 'invoice.payment_failed', status: null });
        expect(two.lastEvent).to.deep.include({ type: 'customer.subscription.updated', status: 'incomplete' });
      } finally {
        await db.close();
        await database.cleanup();
      }
    });
  });
}
