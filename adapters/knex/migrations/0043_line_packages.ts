import type { Knex } from 'knex';
import { addColumnsOnce } from '../schema-kit.js';

export const name = '0043_line_packages';

/**
 * Amounts you can buy (issue 44): a shopping-list line keeps the package its food is sold in, when its chain list
 * price names one (core/food/buy-amounts.ts `packageOfPrice`), so that what to buy, a whole tick and a closing's
 * "all bought" count whole packages without the price at hand. `pack_unit` is the package's unit code (pk),
 * `pack_quantity` of `pack_of_unit` (g, ml, pcs) one package holds; all three null when none is known (every
 * existing line, until its list is derived again).
 */
export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'shopping_list_lines', 'pack_unit', (t) => {
    t.string('pack_unit', 16).nullable();
    t.double('pack_quantity').nullable();
    t.string('pack_of_unit', 32).nullable();
  });
}
