/** The parts of signcraft a deployment may switch off (`SIGNCRAFT_DISABLE`). */
export const SWITCHABLE_PARTS = ["agent", "docs", "storefront", "legacy", "dashboard"] as const

/** One part a deployment may switch off. */
export type SwitchablePart = (typeof SWITCHABLE_PARTS)[number]

const isSwitchablePart = (name: string): name is SwitchablePart => (SWITCHABLE_PARTS as ReadonlyArray<string>).includes(name)

/**
 * Reads the parts to switch off from a comma list or a list of names (blanks ignored, each
 * name once); an unknown name is a fault naming it and the names there are.
 */
export const parseDisabledParts = (
  value: string | ReadonlyArray<string>
): { readonly parts: ReadonlyArray<SwitchablePart> } | { readonly fault: string } => {
  const names = (typeof value === "string" ? value.split(",") : value).map((name) => name.trim()).filter((name) => name !== "")
  const unknown = names.filter((name) => !isSwitchablePart(name))
  if (unknown.length > 0) {
    return { fault: `a comma list of ${SWITCHABLE_PARTS.join(", ")}; unknown: ${unknown.join(", ")}` }
  }
  return { parts: [...new Set(names.filter(isSwitchablePart))] }
}
