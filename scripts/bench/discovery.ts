/**
 * `npm run bench:discovery`: autocannon (50 connections, 10 s) against our discovery and JWKS
 * documents and, in the same run, the same documents from panva's oidc-provider (on PostgreSQL and
 * in memory) and from a bare node:http server (lineup.ts). Writes the table to
 * apps/accounts/docs/benchmarks.md.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cannon, connections, lineupLegend, lineupTable, makeLineup, measureRows, root, seconds, type Side } from "./lineup.ts"
import { machine, writeSection } from "./report.ts"

const ports: Record<Side, number> = { ours: 4191, peerMemory: 4192, bare: 4193, peerPg: 4194 }
const work = mkdtempSync(join(tmpdir(), "bench-discovery-"))
const lineup = makeLineup()

const base = (side: Side) => `http://127.0.0.1:${ports[side]}`
const paths = {
  discovery: { ours: "/.well-known/openid-configuration", peer: "/.well-known/openid-configuration" },
  jwks: { ours: "/.well-known/jwks.json", peer: "/jwks" }
}
const pathOf = (side: Side, document: keyof typeof paths) =>
  side === "peerPg" || side === "peerMemory" ? paths[document].peer : paths[document].ours
const get = (side: Side, path: string) => lineup.measure(side, (duration) => cannon({ url: `${base(side)}${path}` }, duration), seconds)

try {
  await lineup.startOurs(ports.ours, join(work, "accounts"))
  for (const document of ["discovery", "jwks"] as const) {
    writeFileSync(join(work, `${document}.json`), await (await fetch(`${base("ours")}${paths[document].ours}`)).text())
  }
  await lineup.startPeers("scripts/bench/servers/oidc-provider.ts", (peer) => ({ PORT: String(ports[peer]) }))
  await lineup.startBare("scripts/bench/servers/bare.ts", {
    PORT: String(ports.bare),
    DISCOVERY_FILE: join(work, "discovery.json"),
    JWKS_FILE: join(work, "jwks.json")
  })

  const rows = await measureRows([
    { label: "discovery document", run: (side) => get(side, pathOf(side, "discovery")) },
    // The same document through the router, the conventions middleware and the handler (ours only).
    {
      label: "discovery document, ours through the router and conventions",
      run: (side) => side === "ours" ? get(side, `${paths.discovery.ours}?via=router`) : undefined
    },
    { label: "JWKS", run: (side) => get(side, pathOf(side, "jwks")) },
    {
      label: "JWKS, ours through the router and conventions",
      run: (side) => side === "ours" ? get(side, `${paths.jwks.ours}?via=router`) : undefined
    }
  ])

  writeSection(
    join(root, "apps/accounts/docs/benchmarks.md"),
    "discovery",
    `## Discovery and JWKS (\`npm run bench:discovery\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}. autocannon, ${connections} connections, ${seconds} s per target after a ${seconds} s warm-up. The peer serves its JWKS at \`/jwks\`; its store is not read for either document. The rows "through the router and conventions" exist on our server only: the query string sends the request down the path every other endpoint takes.

${lineupLegend()}

${lineupTable(rows)}`
  )
  process.stdout.write(`written to apps/accounts/docs/benchmarks.md\n`)
} finally {
  await lineup.close()
}
