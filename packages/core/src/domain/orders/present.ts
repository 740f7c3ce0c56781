/**
 * `{ [key]: value }` when the value is a string, `{}` when it is null or absent:
 * spreads it into a record whose optional keys must be omitted, never undefined.
 */
export const present = <K extends string>(key: K, value: string | null | undefined): { readonly [P in K]?: string } =>
  // A computed key widens to an index signature; the cast restores the literal key.
  (value === null || value === undefined ? {} : { [key]: value }) as { readonly [P in K]?: string }
