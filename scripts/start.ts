/**
 * `npm start`: starts every service that exists under apps/ (each one's
 * `src/main.ts`), forwards SIGINT/SIGTERM to them, and exits when they have.
 * The environment passes through: `ACCOUNTS_WORKERS=4 npm start` runs accounts
 * as four workers behind one port (launchService's runWorkers).
 */
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"

const root = join(import.meta.dirname, "..")
const services = readdirSync(join(root, "apps")).filter((name) => existsSync(join(root, "apps", name, "src", "main.ts")))

/**
 * IAM and the registry reach accounts' internal routes. When the operator set no shared token, this run
 * makes one up and hands it to all three, so that a local `npm start` works with nothing configured.
 */
const environment = { ...process.env }
const INTERNAL_TOKEN_SETTINGS = ["ACCOUNTS_INTERNAL_TOKEN", "IAM_ACCOUNTS_INTERNAL_TOKEN", "REGISTRY_ACCOUNTS_INTERNAL_TOKEN"]
if (INTERNAL_TOKEN_SETTINGS.every((name) => environment[name] === undefined)) {
  const token = randomBytes(32).toString("base64url")
  for (const name of INTERNAL_TOKEN_SETTINGS) environment[name] = token
}

const children = services.map((name) => {
  const child = spawn(process.execPath, ["--import", "tsx", join("apps", name, "src", "main.ts")], {
    cwd: root,
    stdio: "inherit",
    env: environment
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
