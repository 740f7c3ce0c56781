/** Every accepted analytics `period`, in the order documented. */
export const ANALYTICS_PERIODS = ["7d", "30d", "90d", "365d"] as const

/** An accepted analytics `period`. */
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number]

/** The period used when the query names none. */
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = "30d"

const DAYS: Readonly<Record<AnalyticsPeriod, number>> = { "7d": 7, "30d": 30, "90d": 90, "365d": 365 }

/** True when the string is one of the accepted periods (exact spelling, no trimming). */
export const isAnalyticsPeriod = (value: string): value is AnalyticsPeriod =>
  (ANALYTICS_PERIODS as ReadonlyArray<string>).includes(value)

/** Number of whole UTC days a period spans. */
export const periodDays = (period: AnalyticsPeriod): number => DAYS[period]
