// Keep signcraft and its database out of the bundle. PGlite loads its WebAssembly and data files
// from node_modules at run time, which webpack's bundling breaks; naming PGlite here as well keeps
// it external even where @signcraft/core itself is bundled (in this repository the workspace
// links resolve outside node_modules, so webpack bundles them).
export default {
  serverExternalPackages: ["@signcraft/core", "@signcraft/adapters", "@electric-sql/pglite"]
}
