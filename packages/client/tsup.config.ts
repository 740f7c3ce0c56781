import { packageBuild } from "../../tsup.base.js"

// The API definition (`@signcraft/core/api`, and ts-pattern behind its problem table) is
// bundled into the client's dist, code and declarations, so installing the client installs
// `effect` alone: no database driver, no agent SDK.
export default packageBuild(["src/index.ts", "src/effect.ts"], {
  noExternal: ["@signcraft/core", "ts-pattern"],
  // Bundle core's source, not its split dist chunks, so the client's code is built in one pass.
  esbuildOptions: (options) => {
    options.conditions = ["@signcraft/source"]
  },
  // Declarations come from core's source too: the bundler of declarations resolves no
  // subpath exports, and inlines only modules outside node_modules.
  dts: { compilerOptions: { paths: { "@signcraft/core/*": ["../core/src/*.ts"] } } }
})
