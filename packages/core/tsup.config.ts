import { packageBuild } from "../../tsup.base.js"

// One entry per subpath export: the bundler splits shared code into chunks, so an entry
// loads only the modules it reaches (the domain entry no database, the api entry no services).
// Declarations come from tsc (tsconfig.dts.json), one per module, not from this bundle.
export default packageBuild(
  ["src/index.ts", "src/domain.ts", "src/api.ts", "src/postgres.ts", "src/embedded.ts", "src/internal.ts"],
  { dts: false }
)
