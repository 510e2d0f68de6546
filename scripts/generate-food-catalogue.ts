/**
 * Generates adapters/foodtable/sample-catalogue.json, the embedded food table: a curated list of base foods,
 * each under a few brands and package variants, with valid Norwegian EAN-13 codes (prefix 70) and list prices at
 * three chains. Deterministic (a seeded generator), so a re-run gives the same file.
 *   npx tsx scripts/generate-food-catalogue.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ean13CheckDigit } from '../core/food/ean.js';
import type { FoodProduct, NovaGroup, NutriScore } from '../core/food/types.js';
import { normalizeFoodKey } from '../core/kernel/food-key.js';
import { mulberry32 } from '../core/kernel/seeded.js';

type Base = [name: string, group: string, nova: NovaGroup, nutri: NutriScore | null, price: number, unit: string, sizes: (number | null)[], brands: string[]];

const D = ['Tine', 'Q-Meieriene', 'Synnøve'];
const M = ['Gilde', 'Prior', 'Nortura', 'Folkets'];
const F = ['Lerøy', 'Findus', 'Stabburet'];
const G = ['Bama', 'Gartner', 'Coop'];
const B = ['Bakers', 'Mesterbakeren', 'Hatting'];
const S = ['First Price', 'Eldorado', 'Toro', 'Kolonihagen'];
const K = ['Nidar', 'Freia', 'Sørlandschips', 'Kims'];
const R = ['Ringnes', 'Tine', 'Imsdal', 'Coca-Cola'];
const Z = ['Findus', 'Grandiosa', 'Eldorado'];

const BASES: Base[] = [
  ['Lettmelk', 'Dairy', 1, 'b', 22.9, 'l', [1, 1.75], D],
  ['Helmelk', 'Dairy', 1, 'c', 23.9, 'l', [1], D],
  ['Skummet melk', 'Dairy', 1, 'a', 21.9, 'l', [1], D],
  ['Yoghurt naturell', 'Dairy', 1, 'b', 24.9, 'g', [500, 1000], D],
  ['Jordbæryoghurt', 'Dairy', 3, 'c', 14.9, 'g', [150], D],
  ['Norvegia', 'Dairy', 3, 'd', 109.0, 'g', [500, 1000], D],
  ['Brunost', 'Dairy', 3, 'e', 79.9, 'g', [500], D],
  ['Smør', 'Dairy', 2, 'e', 54.9, 'g', [250, 500], D],
  ['Kesam', 'Dairy', 1, 'a', 32.9, 'g', [300], D],
  ['Rømme', 'Dairy', 1, 'd', 24.9, 'g', [300], D],
  ['Kjøttdeig', 'Meat', 1, 'c', 69.9, 'g', [400, 800], M],
  ['Kyllingfilet', 'Meat', 1, 'a', 119.0, 'g', [700], M],
  ['Svinekotelett', 'Meat', 1, 'c', 89.9, 'g', [600], M],
  ['Grillpølser', 'Meat', 4, 'd', 49.9, 'g', [600], M],
  ['Bacon', 'Meat', 4, 'e', 39.9, 'g', [140], M],
  ['Kjøttkaker', 'Meat', 4, 'd', 59.9, 'g', [600], M],
  ['Leverpostei', 'Meat', 4, 'd', 24.9, 'g', [200], M],
  ['Egg', 'Meat', 1, 'a', 44.9, 'stk', [12, 18], ['Prior', 'Nortura', 'Gårdsegg']],
  ['Laksefilet', 'Fish', 1, 'a', 99.9, 'g', [500], F],
  ['Torskefilet', 'Fish', 1, 'a', 89.9, 'g', [400], F],
  ['Fiskeboller', 'Fish', 4, 'c', 32.9, 'g', [400], F],
  ['Fiskepinner', 'Fish', 4, 'b', 49.9, 'g', [450], F],
  ['Makrell i tomat', 'Fish', 3, 'c', 22.9, 'g', [170], F],
  ['Reker', 'Fish', 1, 'a', 109.0, 'g', [1000], F],
  ['Poteter', 'Vegetables', 1, 'a', 24.9, 'kg', [2], G],
  ['Gulrøtter', 'Vegetables', 1, 'a', 19.9, 'kg', [1], G],
  ['Løk', 'Vegetables', 1, 'a', 14.9, 'kg', [1], G],
  ['Tomater', 'Vegetables', 1, 'a', 29.9, 'g', [500], G],
  ['Agurk', 'Vegetables', 1, 'a', 14.9, 'stk', [1], G],
  ['Brokkoli', 'Vegetables', 1, 'a', 24.9, 'stk', [1], G],
  ['Isbergsalat', 'Vegetables', 1, 'a', 19.9, 'stk', [1], G],
  ['Paprika', 'Vegetables', 1, 'a', 12.9, 'stk', [1], G],
  ['Hakkede tomater', 'Vegetables', 3, 'a', 12.9, 'g', [400], ['Mutti', 'Eldorado', 'First Price']],
  ['Bananer', 'Fruit', 1, 'a', 24.9, 'kg', [1], ['Bama', 'Chiquita', 'Coop']],
  ['Epler', 'Fruit', 1, 'a', 29.9, 'kg', [1], G],
  ['Appelsiner', 'Fruit', 1, 'a', 27.9, 'kg', [1], G],
  ['Druer', 'Fruit', 1, 'a', 34.9, 'g', [500], G],
  ['Jordbær', 'Fruit', 1, 'a', 39.9, 'g', [400], G],
  ['Kneippbrød', 'Bakery', 3, 'b', 34.9, 'stk', [1], B],
  ['Grovbrød', 'Bakery', 3, 'a', 39.9, 'stk', [1], B],
  ['Loff', 'Bakery', 3, 'c', 24.9, 'stk', [1], B],
  ['Rundstykker', 'Bakery', 3, 'c', 29.9, 'stk', [6], B],
  ['Lomper', 'Bakery', 3, 'c', 19.9, 'stk', [10], ['Hatting', 'Bakers', 'Mors']],
  ['Knekkebrød', 'Bakery', 3, 'a', 29.9, 'g', [520], ['Wasa', 'Sigdal', 'Leksands']],
  ['Havregryn', 'Dry goods', 1, 'a', 24.9, 'g', [1000], ['AXA', 'Møllerens', 'First Price']],
  ['Spaghetti', 'Dry goods', 1, 'a', 19.9, 'g', [500, 1000], ['Barilla', 'Eldorado', 'Rummo']],
  ['Basmatiris', 'Dry goods', 1, 'a', 39.9, 'g', [1000], ['Tilda', 'Eldorado', 'Uncle Bens']],
  ['Hvetemel', 'Dry goods', 1, 'a', 19.9, 'g', [2000], ['Møllerens', 'Regal', 'First Price']],
  ['Sukker', 'Dry goods', 2, 'e', 24.9, 'g', [1000], ['Dansukker', 'First Price', 'Eldorado']],
  ['Tomatsaus', 'Dry goods', 3, 'c', 29.9, 'g', [500], ['Dolmio', 'Eldorado', 'Toro']],
  ['Taco krydder', 'Dry goods', 4, 'c', 12.9, 'g', [28], ['Old El Paso', 'Santa Maria', 'Rema 1000']],
  ['Tacolefser', 'Dry goods', 4, 'c', 29.9, 'stk', [8], ['Old El Paso', 'Santa Maria', 'Rema 1000']],
  ['Frokostblanding', 'Dry goods', 4, 'c', 44.9, 'g', [500], ['Kelloggs', 'Nestlé', 'Coop']],
  ['Melkesjokolade', 'Snacks', 4, 'e', 39.9, 'g', [200], K],
  ['Potetgull', 'Snacks', 4, 'e', 34.9, 'g', [250], K],
  ['Kjeks', 'Snacks', 4, 'e', 29.9, 'g', [250], ['Bixit', 'Ballerina', 'Göteborgs']],
  ['Appelsinjuice', 'Drinks', 1, 'c', 32.9, 'l', [1], ['Tine', 'Bramhults', 'God Morgen']],
  ['Brus', 'Drinks', 4, 'e', 29.9, 'l', [1.5], R],
  ['Farris', 'Drinks', 1, 'a', 22.9, 'l', [1.5], ['Ringnes', 'Imsdal', 'Olden']],
  ['Kaffe', 'Drinks', 2, null, 64.9, 'g', [250, 500], ['Friele', 'Evergood', 'Ali']],
  ['Frossenpizza', 'Frozen', 4, 'd', 54.9, 'stk', [1], Z],
  ['Erter', 'Frozen', 1, 'a', 24.9, 'g', [600], Z],
  ['Vaniljeis', 'Frozen', 4, 'e', 49.9, 'l', [2], ['Diplom-Is', 'Hennig-Olsen', 'Kroneis']],
  ['Fiskegrateng', 'Frozen', 4, 'c', 49.9, 'g', [800], Z],
];

const CHAINS = [
  ['Rema 1000', 1.0],
  ['Kiwi', 1.02],
  ['Coop Extra', 1.04],
] as const;


const sizeLabel = (size: number | null, unit: string) => (size === null ? '' : ` ${String(size).replace('.', ',')} ${unit === 'stk' ? 'stk' : unit}`);
const roundPrice = (n: number) => Math.round(n * 10) / 10 - 0.1;

export function generateCatalogue(): FoodProduct[] {
  const random = mulberry32(20260504);
  const products: FoodProduct[] = [];
  let item = 0;
  BASES.forEach(([name, foodGroup, novaGroup, nutriScore, basePrice, unit, sizes, brands], b) => {
    brands.forEach((brand, k) => {
      for (const size of sizes) {
        item++;
        // 70 (Norway) + a five-digit company per base food and brand + a five-digit item number + check digit.
        const first12 = `70${String(10_000 + b * 10 + k).padStart(5, '0')}${String(item).padStart(5, '0')}`;
        const ean = `${first12}${ean13CheckDigit(first12)}`;
        const scale = size !== null && sizes[0] ? size / sizes[0] : 1;
        const brandFactor = 0.85 + random() * 0.35;
        products.push({
          id: `ean-${ean}`,
          ean,
          name: `${brand} ${name}${sizeLabel(size, unit)}`,
          foodKey: normalizeFoodKey(name),
          foodGroup,
          novaGroup,
          nutriScore,
          prices: CHAINS.map(([chain, factor]) => ({
            chain,
            price: Math.max(4.9, roundPrice(basePrice * scale * brandFactor * factor * (0.97 + random() * 0.06))),
            unit,
            packageSize: size,
          })),
        });
      }
    });
    // Loose produce has no EAN: sold by weight or piece.
    if (foodGroup === 'Fruit' || foodGroup === 'Vegetables') {
      products.push({
        id: `loose-${normalizeFoodKey(name)}`,
        ean: null,
        name: `${name} løsvekt`,
        foodKey: normalizeFoodKey(name),
        foodGroup,
        novaGroup,
        nutriScore,
        prices: CHAINS.map(([chain, factor]) => ({ chain, price: roundPrice(basePrice * factor), unit: unit === 'stk' ? 'stk' : 'kg', packageSize: null })),
      });
    }
  });
  return products.map((p) => ({ ...p, prices: p.prices.map((c) => ({ ...c, price: Math.round(c.price * 100) / 100 })) }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'adapters', 'foodtable', 'sample-catalogue.json');
  const products = generateCatalogue();
  writeFileSync(out, `${JSON.stringify(products, null, 1)}\n`);
  console.log(`wrote ${products.length} products to ${out}`);
}
