import { TestDatabase } from "@platform/database"
import { freePort, runToExit, type SpawnedService, spawnService } from "@platform/testkit"
import { Effect, Exit, Scope } from "effect"
import { readFileSync } from "node:fs"
import { request } from "node:http"
import { join } from "node:path"

export const root = join(import.meta.dirname, "..", "..")

/** Starts accounts as its own process, exactly as `npm start` runs it, with `env` on top of test-friendly settings. */
export const startAccounts = async (env: Record<string, string>, port?: number): Promise<SpawnedService> => {
  const listenOn = port ?? await freePort()
  return spawnService({
    entry: "apps/accounts/src/main.ts",
    cwd: root,
    url: `http://127.0.0.1:${listenOn}`,
    env: { ACCOUNTS_PORT: String(listenOn), ACCOUNTS_KEYS_REFRESH_SECONDS: "1", ACCOUNTS_DRAIN_SECONDS: "5", ...env }
  })
}

/** A database other processes can reach: a fresh one on TEST_DATABASE_URL's server, else an embedded one served over TCP. */
export const provisionedDatabase = async () => {
  const scope = Effect.runSync(Scope.make())
  const { url } = await Effect.runPromise(Scope.extend(TestDatabase.provision, scope))
  return { url, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** The codes the development mailbox in `dataDir` holds for `to`, oldest first. */
export const codesFor = (dataDir: string, to: string): Array<string> => {
  let text: string
  try {
    text = readFileSync(join(dataDir, "mailbox.jsonl"), "utf8")
  } catch {
    return []
  }
  return text.trim().split("\n").filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { to: string; code?: string })
    .flatMap((message) => message.to === to && message.code !== undefined ? [message.code] : [])
}

/** Runs the operator CLI (`npm run accounts -- …`) with `env`; resolves with what it printed. */
export const runAccountsCli = async (args: Array<string>, env: Record<string, string>) => {
  const finished = await runToExit({ entry: "apps/accounts/src/cli.ts", cwd: root, env, args })
  // Refused as execFile refuses: an Error carrying the exit code and what was printed.
  if (finished.code !== 0) throw Object.assign(new Error(`npm run accounts -- ${args.join(" ")} exited with ${finished.code}`), finished)
  return finished
}

/**
 * POSTs a report on a connection of its own; once the server has taken it, sends half the body, then SIGTERM to the service,
 * then the rest: resolves with the status of the answer (201 when the request was let finish).
 */
export const reportAcrossSigterm = (service: SpawnedService) =>
  new Promise<number>((resolve, reject) => {
    const req = request(`${service.url}/v1/reports`, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", expect: "100-continue" }
    }, (res) => {
      res.resume()
      res.on("end", () => resolve(res.statusCode ?? 0))
    })
    req.on("error", reject)
    // Node's server answers 100 Continue as it hands the request to the app: from then on it is in flight.
    req.once("continue", () => {
      req.write("{\"message\":")
      service.process.kill("SIGTERM")
      setTimeout(() => req.end("\"late but whole\"}"), 300)
    })
    req.flushHeaders()
  })
