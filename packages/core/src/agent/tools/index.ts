import { getStoreTool } from "./get-store.js"

/**
 * Every tool of the agent endpoint, in `tools/list` order. To add one: write
 * `tools/<name>.ts` with `defineTool` (its scopes, an input schema, and a body calling
 * core services for `principal.storeId`), then list it here; its services must be in
 * the app's layer.
 */
export const agentTools = [getStoreTool] as const
