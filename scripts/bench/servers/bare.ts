/**
 * Baseline: a bare node:http server answering two pre-serialized JSON
 * documents, the floor any framework adds cost to.
 * Env: PORT, DISCOVERY_FILE, JWKS_FILE.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const discovery = readFileSync(process.env["DISCOVERY_FILE"]!)
const jwks = readFileSync(process.env["JWKS_FILE"]!)
const headers = { "content-type": "application/json", "access-control-allow-origin": "*", "cache-control": "public, max-age=300" }

createServer((request, response) => {
  const body = request.url === "/.well-known/openid-configuration" ? discovery : request.url === "/.well-known/jwks.json" ? jwks : undefined
  if (body === undefined) {
    response.writeHead(404).end()
    return
  }
  response.writeHead(200, { ...headers, "content-length": body.length }).end(body)
}).listen(Number(process.env["PORT"]), "127.0.0.1", () => process.stdout.write("ready\n"))
