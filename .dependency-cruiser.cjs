/** The layering rule of STYLE.md, checked on every `npm test`. */
module.exports = {
  forbidden: [
    {
      name: 'core-depends-on-core-and-ports-only',
      comment: 'core/ holds the domain and its use cases: no framework, driver, node built-in or adapter.',
      severity: 'error',
      from: { path: '^core/' },
      to: { pathNot: '^(core|ports)/' },
    },
    {
      name: 'ports-depend-on-ports-and-domain-types-only',
      comment: 'ports/ may name the domain types of core (types.ts, shared/), never a use case, and no I/O.',
      severity: 'error',
      from: { path: '^ports/' },
      to: { pathNot: '^(ports/|core/shared/|core/[^/]+/types\\.ts$)' },
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
