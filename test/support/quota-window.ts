/**
 * Waits, when needed, until at least `marginSeconds` remain in the current one-minute quota
 * window (windows are aligned to the epoch minute), so a test that fills a quota and expects
 * a 429 is not rescued by a new window opening half-way through.
 */
export const outsideWindowEdge = async (marginSeconds = 20): Promise<void> => {
  const secondsLeft = 60 - (Math.floor(Date.now() / 1000) % 60)
  if (secondsLeft < marginSeconds) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 100))
}
