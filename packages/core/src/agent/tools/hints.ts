import type { AgentToolHints } from "../tool.js"

/** The hints of a tool that only reads: no change, so repeating it changes nothing either. */
export const READ_ONLY: AgentToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true }
