// The one-way import graph of signcraft (ARCHITECTURE.md, "Layers"), checked by `npm run lint`:
//   domain ← storage ← services ← presenters ← http, agent ← app ← server, adapters
// A module imports only from its own layer or the layers to its left; http and agent never
// import each other; nothing imports in a cycle.

const CORE = "^packages/core/src/"

/** The modules behind @signcraft/core's package exports (package.json "exports"). */
const ENTRIES = `${CORE}(index|domain|api|postgres|embedded|internal)\\.ts$`

// What the light entries (domain rules, the API definition) must never load: database drivers,
// the agent SDK and the token signer, so a client or a migration script stays small.
const HEAVY_PACKAGES = "(^|/)node_modules/(@electric-sql/pglite|pg|@effect/sql-pg|@modelcontextprotocol/sdk|jose)/"

/** The layers of packages/core/src, lowest first, each with the path pattern of its modules. */
const LAYERS = [
  { name: "domain", path: `${CORE}domain/` },
  { name: "storage", path: `${CORE}storage/` },
  { name: "services", path: `${CORE}services/` },
  { name: "presenters", path: `${CORE}presenters/` },
  { name: "http", path: `${CORE}http/` },
  { name: "agent", path: `${CORE}agent/` },
  { name: "app", path: `${CORE}(app/|app\\.ts$|index\\.ts$|internal\\.ts$|postgres\\.ts$|embedded\\.ts$)` }
]

// What each layer may not import: every layer above it (http and agent are side by side).
const ABOVE = {
  domain: ["storage", "services", "presenters", "http", "agent", "app"],
  storage: ["services", "presenters", "http", "agent", "app"],
  services: ["presenters", "http", "agent", "app"],
  presenters: ["http", "agent", "app"],
  http: ["agent", "app"],
  agent: ["http", "app"],
  app: []
}

const pathOf = (name) => {
  const layer = LAYERS.find((candidate) => candidate.name === name)
  if (layer === undefined) throw new Error(`unknown layer ${name}`)
  return layer.path
}

const upwardImports = LAYERS.filter((layer) => ABOVE[layer.name].length > 0).map((layer) => ({
  name: `${layer.name}-imports-up`,
  comment: `${layer.name} may not import ${ABOVE[layer.name].join(", ")}: imports only point down.`,
  severity: "error",
  from: { path: layer.path },
  to: { path: ABOVE[layer.name].map(pathOf) }
}))

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A cycle makes two modules one: split the shared part out below both. A cycle " +
        "closed only by type imports loads nothing at run time and is allowed.",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } }
    },
    ...upwardImports,
    {
      name: "core-imports-hosts",
      comment: "The library never imports the packages built on it (server, adapters, client).",
      severity: "error",
      from: { path: CORE },
      to: { path: "^packages/(server|adapters|client)/" }
    },
    {
      name: "adapters-import-server",
      comment: "The adapters are a library; the reference server builds on them, not the reverse.",
      severity: "error",
      from: { path: "^packages/adapters/src/" },
      to: { path: "^packages/server/" }
    },
    {
      name: "hosts-reach-into-core",
      comment: "Server, adapters and client use @signcraft/core's package exports, never a module behind them.",
      severity: "error",
      from: { path: "^packages/(server|adapters|client)/src/" },
      to: { path: CORE, pathNot: ENTRIES }
    },
    {
      name: "client-uses-the-contract-only",
      comment: "The client bundles what it imports from core into its own build: only the light " +
        "entries (domain rules, the API definition), so installing it installs no database driver.",
      severity: "error",
      from: { path: "^packages/client/src/" },
      to: { path: CORE, pathNot: `${CORE}(domain|api)\\.ts$` }
    },
    {
      name: "presenters-read-domain-entities",
      comment: "A presenter shows what the domain declares (StoredOrder, DeliveryRecord, …); the services that produce them are not its concern.",
      severity: "error",
      from: { path: `${CORE}presenters/` },
      to: { path: `${CORE}services/` }
    },
    {
      name: "domain-stays-pure",
      comment: "The domain rules load no database driver, agent SDK or token signer.",
      severity: "error",
      from: { path: `${CORE}domain(/|\\.ts$)` },
      to: { path: HEAVY_PACKAGES }
    },
    {
      name: "light-entries-stay-light",
      comment: "@signcraft/core/domain and @signcraft/core/api reach no storage, service, agent or " +
        "app module and none of the heavy packages, even through other modules: clients and " +
        "migration scripts import them without a database.",
      severity: "error",
      from: { path: `${CORE}(domain|api)\\.ts$` },
      to: {
        path: [HEAVY_PACKAGES, `${CORE}(storage|services|agent|app)/`, `${CORE}app\\.ts$`],
        reachable: true
      }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      // Workspace packages resolve to their source, as in the tests and the type-check.
      conditionNames: ["@signcraft/source", "import", "require", "node", "default"],
      exportsFields: ["exports"],
      extensions: [".ts", ".js", ".cjs", ".mjs", ".json"]
    }
  }
}
