/**
 * The house's layout (ARCHITECTURE §2, issue 16): each service is its own room. `make test` runs
 * `depcruise` with these rules; a new import across rooms fails the build.
 */
const SERVICES = '(gateway|catalog|orders|partners|notifications|ingestion|transfers)';
/** A room of a service: src/<room>/ or, in a service split by subdomain, src/<subdomain>/<room>/. */
const room = (name) => `^services/[^/]+/src/(${name}|[a-z-]+/${name})/`;

module.exports = {
  forbidden: [
    {
      name: 'service-imports-another-service',
      comment: 'A service talks to another over HTTP or the bus, never by importing its code; shared code lives in services/platform or services/contracts.',
      severity: 'error',
      // A test may assemble a system of several services (as e2e/ does); production code may not.
      from: { path: `^services/${SERVICES}/src/` },
      to: { path: `^services/${SERVICES}/`, pathNot: '^services/$1/' },
    },
    {
      name: 'shared-code-imports-a-service',
      comment: 'platform and contracts are under every service; they import none.',
      severity: 'error',
      from: { path: '^services/(platform|contracts)/src/' },
      to: { path: `^services/${SERVICES}/` },
    },
    {
      name: 'contracts-import-platform',
      comment: 'contracts are read by the SPA too: they never pull in the server-side platform.',
      severity: 'error',
      from: { path: '^services/contracts/' },
      to: { path: '^services/platform/' },
    },
    {
      name: 'web-imports-backend-beyond-contracts',
      comment: 'The SPA shares only the contracts with the backend.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^services/', pathNot: '^services/contracts/' },
    },
    {
      name: 'web-imports-no-bus-or-docs',
      comment:
        "The SPA's bundle holds what a browser needs of the contracts: not the bus's messages and broker manifest, not the API documents' generators (contracts/src/bus/, contracts/src/docs/), nor the index that re-exports them (issue 26).",
      severity: 'error',
      from: { path: '^web/src/' },
      to: { path: '^services/contracts/src/(bus/|docs/|index[.]ts$)' },
    },
    {
      name: 'contracts-for-the-spa-import-no-bus-or-docs',
      comment: "A contract the SPA may import stays apart from the bus and the API documents, so importing it never pulls them in.",
      severity: 'error',
      from: { path: '^services/contracts/src/[^/]+[.]ts$', pathNot: '^services/contracts/src/index[.]ts$' },
      to: { path: '^services/contracts/src/(bus|docs)/' },
    },
    {
      name: 'domain-imports-no-web-or-driver',
      comment:
        "A service's domain decides; it speaks neither HTTP nor SQL (ARCHITECTURE §2, issue 26): no express, no busboy, no pg, nothing of http/. Requests are parsed and files received in http/; queries live in db/ (infra/scripts/check-rooms.ts also refuses a query written in a domain file).",
      severity: 'error',
      from: { path: room('domain') },
      to: { path: ['node_modules/(express|busboy|pg|pg-pool|pg-copy-streams)/', room('http'), '^services/platform/src/http/'] },
    },
    {
      name: 'db-imports-no-domain',
      comment: 'db/ holds queries; the domain calls them, never the other way round (the types a query takes live beside it).',
      severity: 'error',
      from: { path: room('db') },
      to: { path: room('domain') },
    },
    {
      name: 'http-reads-db-only-through-read-models',
      comment: 'A route parses, calls the domain and maps the answer; it reads the database itself only through a named read model (db/read-models/), never the tables the domain writes.',
      severity: 'error',
      from: { path: room('http') },
      to: { path: room('db'), pathNot: '/db/read-models/' },
    },
    {
      name: 'gateway-edge-touches-no-account-tables',
      comment: "The gateway's edge (sessions, view-as, forwarding) asks the account domain who a user is; it never reads the account tables.",
      severity: 'error',
      from: { path: '^services/gateway/src/edge/' },
      to: { path: '^services/gateway/src/db/' },
    },
    {
      name: 'no-circular-between-rooms',
      comment: "A service's rooms point one way (http → domain → db); a cycle between files hides which one decides.",
      severity: 'error',
      from: { path: '^services/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|var)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
