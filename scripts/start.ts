/**
 * `npm start`: starts every service that exists under apps/ (each one's
 * `src/main.ts`), forwards SIGINT/SIGTERM to them, and exits when they have.
 * The environment passes through: `ACCOUNTS_WORKERS=4 npm start` runs accounts
 * as four workers behind one port (launchService's runWorkers).
 */
import { spawn } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"

const root = join(import.meta.dirname, "..")
const services = readdirSync(join(root, "apps")).filter((name) => existsSync(join(root, "apps", name, "src", "main.ts")))

const children = services.map((name) => {
  const child = spawn(process.execPath, ["--import", "tsx", join("apps", name, "src", "main.ts")], {
    cwd: root,
    stdio: "inherit",
    env: process.env
  })
  child.on("exit", (code, signal) => {
    if (code !== 0 && signal === null) {
      process.stderr.write(`${name} exited with code ${code}\n`)
      process.exitCode = code ?? 1
      stopAll("SIGTERM")
    }
  })
  return child
})

function stopAll(signal: NodeJS.Signals) {
  for (const child of children) if (child.exitCode === null) child.kill(signal)
}

process.on("SIGINT", () => stopAll("SIGINT"))
process.on("SIGTERM", () => stopAll("SIGTERM"))
