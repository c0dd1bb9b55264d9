/**
 * The house's layout (ARCHITECTURE §2, issue 16): each service is its own room. `make test` runs
 * `depcruise` with these rules; a new import across rooms fails the build.
 */
const SERVICES = '(gateway|catalog|orders|partners|notifications|ingestion|transfers)';

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
