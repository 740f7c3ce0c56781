/**
 * @signcraft/server: the reference server of signcraft, as the `signcraft` command and
 * as functions for embedding it (`loadConfig` then `serve`).
 */
export { bannerLines, describeDatabase } from "./banner.js"
export {
  CONFIG_VARIABLES,
  type ConfigResult,
  type ConfigVariable,
  type EnvironmentVariables,
  loadConfig,
  type LogFormat,
  type TraceExport,
  type LoadConfigOptions,
  type McpListener,
  type ServerConfig
} from "./config.js"
export { DEMO_EMAIL, type DemoData, DemoSeed, layerDemoSeed, seedDemoData } from "./demo-data.js"
export { type LineOutput, makeLineOutput } from "./log-output.js"
export { layerPruning, pruneOnce } from "./pruning.js"
export { layerServer, requestLogger, requestLoggerFor, serve, type ServeOptions, textRequestLogger } from "./serve.js"
export { layerTraceExport, layerTracesOff, layerTracing } from "./tracing.js"
