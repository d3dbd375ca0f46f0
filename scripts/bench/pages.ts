/**
 * `npm run bench:pages`: the hosted sign-in page (`GET /authorize` with an app's authorization
 * request) loaded in Debian's Chromium, each load in a fresh context (a first visit, nothing
 * cached): time to first byte and to the load event (median of BENCH_LOADS, default 20), and the
 * bytes of script and style the page loads, as sent and gzip-compressed. Writes its section of
 * apps/accounts/docs/benchmarks.md after a full run (20 loads or more); a shorter run only prints.
 */
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { chromium } from "playwright-core"
import { AccountsRepo } from "../../apps/accounts/src/accounts/AccountsRepo.ts"
import { AppsRepo } from "../../apps/accounts/src/apps/AppsRepo.ts"
import { createFakeApp } from "../../apps/accounts/src/apps/FakeApps.ts"
import { makeLineup, root } from "./lineup.ts"
import { ourDatabase } from "./ourDatabase.ts"
import { machine, writeSection } from "./report.ts"

const loads = Number(process.env["BENCH_LOADS"] ?? "20")
const port = 4196
const base = `http://127.0.0.1:${port}`
const work = mkdtempSync(join(tmpdir(), "bench-pages-"))
const dataDir = join(work, "accounts")
const redirectUri = "https://bench.example/callback"
const lineup = makeLineup()
const runtime = ManagedRuntime.make(
  Layer.mergeAll(AccountsRepo.Default, AppsRepo.Default).pipe(Layer.provideMerge(ourDatabase(dataDir)))
)

interface Load {
  readonly firstByteMs: number
  readonly loadMs: number
  readonly assets: ReadonlyArray<{ readonly url: string; readonly bytes: number }>
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const round = (ms: number) => Math.round(ms * 10) / 10

try {
  await lineup.startOurs(port, dataDir)
  const appId = `benchpages${Date.now().toString(36)}`
  await runtime.runPromise(
    Effect.orDie(createFakeApp({ appId, name: "Bench app", redirectUris: [redirectUri], owner: Option.none(), scopeFields: [] }))
  )
  const page = `${base}/authorize?${new URLSearchParams({
    app_id: appId,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "openid profile",
    state: "bench",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256"
  })}`
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
  const results: Array<Load> = []
  try {
    for (let i = 0; i < loads; i++) {
      const context = await browser.newContext()
      const tab = await context.newPage()
      await tab.goto(page, { waitUntil: "load" })
      // Written as text: it runs in the page, and this script is compiled without the DOM's types.
      results.push(await tab.evaluate(`(() => {
        const nav = performance.getEntriesByType("navigation")[0];
        const assets = performance.getEntriesByType("resource")
          .filter((r) => r.initiatorType === "script" || r.initiatorType === "link")
          .map((r) => ({ url: r.name, bytes: r.encodedBodySize }));
        return { firstByteMs: nav.responseStart - nav.startTime, loadMs: nav.loadEventEnd - nav.startTime, assets };
      })()`) as Load)
      await context.close()
    }
  } finally {
    await browser.close()
  }
  const assets = results[0]!.assets
  const gzipped = await Promise.all(
    assets.map(async (asset) => gzipSync(Buffer.from(await (await fetch(asset.url)).arrayBuffer())).length)
  )
  const sent = assets.reduce((sum, asset) => sum + asset.bytes, 0)
  const compressed = gzipped.reduce((sum, bytes) => sum + bytes, 0)
  const firstByte = round(median(results.map((r) => r.firstByteMs)))
  const load = round(median(results.map((r) => r.loadMs)))
  const table = `| measure | value |
| --- | --- |
| time to first byte, median of ${loads} | ${firstByte} ms |
| time to the load event, median of ${loads} | ${load} ms |
| script and style loaded (${assets.length} files), as sent | ${sent} bytes |
| the same, gzip-compressed | ${compressed} bytes |`
  process.stdout.write(`${table}\n`)
  if (loads >= 20) {
    writeSection(
      join(root, "apps/accounts/docs/benchmarks.md"),
      "pages",
      `## The hosted sign-in page (\`npm run bench:pages\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}. \`GET /authorize\` with an authorization request of a fake app, loaded ${loads} times in Debian's Chromium (headless), each load in a fresh browser context (nothing cached), on the embedded database unless \`ACCOUNTS_DATABASE_URL\` is set. Times from the page's Navigation Timing. Targets: first byte under 20 ms, script and style under 100 KB compressed.

${table}`
    )
  }
} finally {
  await runtime.dispose()
  await lineup.close()
}
