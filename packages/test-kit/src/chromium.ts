import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"

/** The flags Chromium needs here: headless, as root, with no network of its own. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
] as const

// Where Debian (and Ubuntu's transitional package) put the browser; CHROMIUM_PATH wins.
const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium", "/snap/bin/chromium"]

const onPath = (name: string): string | undefined => {
  try {
    const found = execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim()
    return found === "" ? undefined : found
  } catch {
    // `command -v` exits non-zero when the name is not on PATH.
    return undefined
  }
}

/** The Chromium executable on this machine, or undefined when there is none. */
export const findChromium = (): string | undefined => {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv !== undefined && fromEnv !== "") return existsSync(fromEnv) ? fromEnv : undefined
  return CANDIDATES.find((path) => existsSync(path)) ?? onPath("chromium") ?? onPath("chromium-browser")
}

/**
 * What a browser test does when Chromium is missing: in CI (`CI` set) the leg must run, so
 * the test fails; on a developer's machine it is skipped with the reason and the fix.
 */
export const browserLeg = (): { readonly executablePath: string } | { readonly skip: string } => {
  const executablePath = findChromium()
  if (executablePath !== undefined) return { executablePath }
  const reason = "Chromium is not installed (apt-get install -y chromium, or set CHROMIUM_PATH)"
  if (process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false") {
    throw new Error(`${reason}: CI runs the browser leg and cannot skip it`)
  }
  return { skip: `${reason}; the browser leg is skipped` }
}
