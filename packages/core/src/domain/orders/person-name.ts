/** A full name split into the v3 `first_name` / `last_name` pair; absent parts are undefined. */
export interface SplitName {
  readonly firstName: string | undefined
  readonly lastName: string | undefined
}

/**
 * Splits a single free-text name: the first whitespace-separated token is the
 * first name, everything after it (single-spaced) is the last name.
 * "Ludwig van Beethoven" → "Ludwig" / "van Beethoven"; "Cher" → "Cher" / none;
 * blank or null → neither. First-token-wins keeps surname particles (van, de la)
 * with the surname, which a last-token rule would strand in the first name.
 */
export const splitFullName = (name: string | null | undefined): SplitName => {
  const tokens = (name ?? "").trim().split(/\s+/u).filter((token) => token.length > 0)
  const [first, ...rest] = tokens
  return { firstName: first, lastName: rest.length > 0 ? rest.join(" ") : undefined }
}
