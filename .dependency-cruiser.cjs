/**
 * core's folders from the bottom layer up. A folder imports only folders of the layers below its own, never a
 * folder of its own layer or of one above it, so no two folders are tied both ways, directly or through a third.
 * A piece that serves several folders lives in the lowest folder that owns its concept, below all its users
 * (units in food, portions and the avoid gate in events, access checks in households). Type-only imports count
 * (tsPreCompilationDeps).
 */
const CORE_LAYERS = [
  ['kernel'], // the words every folder speaks: ids, dates, results, errors, food keys, avoids
  ['accounts', 'mail'], // who signs in; the mail outbox's delivery
  ['households'], // who eats together, and who may do what in a household
  ['billing', 'feedback', 'food', 'operator', 'reference', 'waitlist'], // food: the units every amount is in, prices, receipts
  ['pantry', 'recipes'],
  ['events'], // a day's meal events: who is away, which guests come, portions and the avoid gate
  ['calendar', 'dinnerprices'],
  ['plans', 'publicdata', 'push'],
  ['shopping'], // lists derived from the plans, the pantry and the recipes
  ['transfer'], // a household whole, as one document
];

const alternatives = (folders) => `^core/(${folders.join('|')})/`;

/** One rule per folder: of core, only itself and the folders of the layers below its own. */
const coreLayerRules = CORE_LAYERS.flatMap((layer, i) =>
  layer.map((folder) => {
    const below = CORE_LAYERS.slice(0, i).flat();
    return {
      name: `core-${folder}-imports-only-lower-layers`,
      comment: `core/${folder} may import ${below.join(', ') || 'no other core folder'} (the layers below its own).`,
      severity: 'error',
      from: { path: alternatives([folder]) },
      to: { path: '^core/', pathNot: alternatives([...below, folder]) },
    };
  }),
);

/** The layering of the service (core, ports, adapters, bootstrap) and of web/, checked on every `npm test` (lint:layers). */
module.exports = {
  forbidden: [
    ...coreLayerRules,
    {
      name: 'core-folder-has-a-layer',
      comment: 'A new folder of core/ takes its place in CORE_LAYERS above, under every folder it imports.',
      severity: 'error',
      from: { path: '^core/', pathNot: alternatives(CORE_LAYERS.flat()) },
      to: {},
    },
    {
      name: 'core-depends-on-core-and-ports-only',
      comment: 'core/ holds the domain and its use cases: no framework, driver, node built-in or adapter.',
      severity: 'error',
      from: { path: '^core/' },
      to: { pathNot: '^(core|ports)/' },
    },
    {
      name: 'ports-depend-on-ports-and-domain-types-only',
      comment: 'ports/ may name the domain types of core (types.ts, kernel/), never a use case, and no I/O.',
      severity: 'error',
      from: { path: '^ports/' },
      to: { pathNot: '^(ports/|core/kernel/|core/[^/]+/types\\.ts$)' },
    },
    {
      name: 'adapters-never-reach-the-composition-root',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^bootstrap/' },
    },
    {
      name: 'web-speaks-http-only',
      comment: 'web/ is a browser program: it talks to the service over HTTP through its typed client, never to its code.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(core|ports|adapters|bootstrap|config|test|scripts)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.d.ts'] },
  },
};
