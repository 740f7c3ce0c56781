#!/usr/bin/env node
// The `signcraft` command. In a checkout (src/ present) it runs the build when `npm run build`
// has made one at least as new as the source (fresh-build.js), and otherwise the TypeScript
// source through tsx, so it works right after `npm install` and never runs a stale build; an
// installed package (dist/ only) runs its build. Either runs in a child process started with the
// server's heap flags (node-flags.js), which a running process can no longer change.
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { isBuildFresh } from "./fresh-build.js"
import { serverNodeFlags } from "./node-flags.js"

const source = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const built = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
const entry = existsSync(source) && !isBuildFresh(fileURLToPath(new URL("../../..", import.meta.url)))
  ? ["--conditions=@signcraft/source", "--import", import.meta.resolve("tsx"), source]
  : [built]
const child = spawn(process.execPath, [...serverNodeFlags(), ...entry, ...process.argv.slice(2)], { stdio: "inherit" })
// The server drains on SIGTERM/SIGINT: pass them on and exit as it exits.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal))
child.on("exit", (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)))
