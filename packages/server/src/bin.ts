#!/usr/bin/env node
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit } from "effect"
import { parseCommandLine, USAGE, usageErrorText } from "./cli.js"
import { runCheck } from "./commands/check.js"
import { processContext } from "./commands/context.js"
import { runDiagnoseRateLimit } from "./commands/diagnose-rate-limit.js"
import { runMigrateTranslate } from "./commands/migrate-translate.js"
import { runMigrateUsage } from "./commands/migrate-usage.js"
import { loadConfig } from "./config.js"
import { serve } from "./serve.js"

// Shutdown waits at most this long for in-flight requests; then the rest is forced.
const GRACEFUL_SHUTDOWN_MS = 10_000
// Beyond this the process is stuck (a hung database close, say): exit anyway.
const HARD_DEADLINE_MS = GRACEFUL_SHUTDOWN_MS + 10_000

// A start-up failure as one line: `EADDRINUSE`, an unreachable database, …
const describeStartupFailure = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  if (!(error instanceof Error)) return String(error)
  const inner = error.cause instanceof Error ? `: ${error.cause.message}` : ""
  return `${error.message}${inner}`
}

// runMain interrupts the server on the first SIGINT/SIGTERM; this adds a notice and a deadline in
// case closing hangs. A signal sent to the whole process group (Ctrl-C, systemd, `kill -- -PGID`)
// reaches this process twice, directly and through the `signcraft` shim that forwards it, so a
// repeat during the drain is a duplicate, never a request to cut the requests in flight short.
const watchSignals = () => {
  let draining = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (draining) return
    draining = true
    process.stderr.write(`signcraft: ${signal} received, finishing in-flight requests\n`)
    setTimeout(() => {
      process.stderr.write("signcraft: shutdown did not finish in time, exiting\n")
      process.exit(1)
    }, HARD_DEADLINE_MS).unref()
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
}

// A subcommand's exit code becomes the process's; an unexpected throw is reported, exit 1.
const exitWith = (run: Promise<number>) => {
  run.then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      process.stderr.write(`signcraft: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
      process.exitCode = 1
    }
  )
}

const main = () => {
  const command = parseCommandLine(process.argv.slice(2), process.env)
  switch (command._tag) {
    case "Help":
      process.stdout.write(USAGE)
      return
    case "UsageError":
      process.stderr.write(usageErrorText(command.message))
      process.exitCode = 2
      return
    case "Check":
      return exitWith(runCheck(command, processContext()))
    case "DiagnoseRateLimit":
      return exitWith(runDiagnoseRateLimit(command, processContext()))
    case "MigrateTranslate":
      return exitWith(runMigrateTranslate(command, processContext()))
    case "MigrateUsage":
      return exitWith(runMigrateUsage(command, processContext()))
    case "Serve": {
      const result = loadConfig(command.env, { labels: command.labels })
      if (result._tag === "Invalid") {
        for (const error of result.errors) process.stderr.write(`signcraft: ${error}\n`)
        process.exitCode = 1
        return
      }
      watchSignals()
      const program = serve(result.config, { gracefulShutdownTimeout: GRACEFUL_SHUTDOWN_MS }).pipe(
        Effect.tapCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.void
            : Effect.sync(() => process.stderr.write(`signcraft: could not start: ${describeStartupFailure(cause)}\n`))
        )
      )
      NodeRuntime.runMain(program, {
        disableErrorReporting: true,
        // A signal interrupts the server: that is a clean stop, exit code 0.
        teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
      })
    }
  }
}

main()
