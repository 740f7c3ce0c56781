import type { SwitchablePart } from "../domain/deployment/switches.js"
import { generationOf } from "./generations.js"

/**
 * The switchable part a route path belongs to, if any: the agent endpoint and the whole
 * authorization server (its routes, pages and metadata), the docs pages, the storefront API, the
 * previous generation, the merchant dashboard. `agentPath` is where this listener serves the agent endpoint.
 */
export const partOf = (pathname: string, agentPath?: string): SwitchablePart | undefined => {
  switch (generationOf(pathname, agentPath)) {
    case "agent":
    case "oauth":
      return "agent"
    case "legacy":
      return "legacy"
    case "storefront":
      return "storefront"
    case "dashboard":
      return "dashboard"
  }
  if (pathname.startsWith("/.well-known/")) return "agent"
  if (pathname === "/docs" || pathname.startsWith("/docs/")) return "docs"
  return undefined
}

/** Whether a route path belongs to a part the deployment switched off. */
export const makeSwitchedOff = (disabled: ReadonlyArray<SwitchablePart>, agentPath?: string) => {
  const off: ReadonlySet<SwitchablePart> = new Set(disabled)
  return (pathname: string): boolean => {
    if (off.size === 0) return false
    const part = partOf(pathname, agentPath)
    return part !== undefined && off.has(part)
  }
}
