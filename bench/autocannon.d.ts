// The subset of autocannon 9's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  interface Options {
    readonly url: string
    readonly connections?: number
    readonly duration?: number
    /** Stop after this many requests; autocannon then ignores `duration`. */
    readonly amount?: number
    readonly pipelining?: number
    /** Load-generating worker threads; 0 or unset runs the load in the calling thread. */
    readonly workers?: number
    readonly method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
    readonly headers?: Readonly<Record<string, string>>
    readonly body?: string
    /** Replaces every `[<id>]` in the request (headers and body) with a fresh unique id. */
    readonly idReplacement?: boolean
  }

  interface Percentiles {
    readonly average: number
    readonly total: number
    readonly p50: number
    readonly p99: number
  }

  interface Result {
    readonly duration: number
    readonly errors: number
    readonly timeouts: number
    readonly non2xx: number
    readonly "2xx": number
    readonly latency: Percentiles
    readonly requests: Percentiles
  }

  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
