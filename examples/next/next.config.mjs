// Keep signcraft out of the bundle: PGlite loads its WebAssembly and data files from node_modules.
export default {
  serverExternalPackages: ["@signcraft/core", "@signcraft/adapters"]
}
