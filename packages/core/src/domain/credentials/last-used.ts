/**
 * How finely "last used" is kept for API keys and connector grants: a use is written only when the
 * stored one is older than this, so a busy key costs one write a minute, not one per request.
 */
export const LAST_USED_RESOLUTION_SECONDS = 60

/** Whether a use at `now` should be written over the stored `lastUsedAt`. */
export const lastUseIsStale = (lastUsedAt: Date | null, now: Date): boolean =>
  lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_SECONDS * 1000
