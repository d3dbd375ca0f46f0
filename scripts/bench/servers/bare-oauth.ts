/**
 * Baseline for the OAuth benchmark: a bare node:http server answering, from memory, the JSON our
 * server answers on each route: POST /v1/oauth/token (after reading the form body), GET /v1/userinfo,
 * POST /v1/oauth/introspect (after reading the form body). Env: PORT, TOKEN_FILE, USERINFO_FILE,
 * INTROSPECT_FILE.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const bodies: Record<string, Buffer> = {
  "POST /v1/oauth/token": readFileSync(process.env["TOKEN_FILE"]!),
  "GET /v1/userinfo": readFileSync(process.env["USERINFO_FILE"]!),
  "POST /v1/oauth/introspect": readFileSync(process.env["INTROSPECT_FILE"]!)
}
const headers = { "content-type": "application/json", "cache-control": "no-store" }

createServer((request, response) => {
  const body = bodies[`${request.method} ${request.url}`]
  if (body === undefined) {
    response.writeHead(404).end()
    return
  }
  // Read the request to its end, as a form-reading endpoint would, then answer.
  request.on("data", () => {})
  request.on("end", () => response.writeHead(200, { ...headers, "content-length": body.length }).end(body))
}).listen(Number(process.env["PORT"]), "127.0.0.1", () => process.stdout.write("ready\n"))
