/**
 * Baseline for the OAuth and refresh benchmarks: a bare node:http server answering, from memory,
 * the JSON our server answers on each route whose file is given: POST /v1/oauth/token (TOKEN_FILE,
 * after reading the form body), GET /v1/userinfo (USERINFO_FILE), GET /v1/me (ME_FILE),
 * POST /v1/oauth/introspect (INTROSPECT_FILE, after reading the form body). Env: PORT and those files.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const files: Record<string, string | undefined> = {
  "POST /v1/oauth/token": process.env["TOKEN_FILE"],
  "GET /v1/userinfo": process.env["USERINFO_FILE"],
  "GET /v1/me": process.env["ME_FILE"],
  "POST /v1/oauth/introspect": process.env["INTROSPECT_FILE"]
}
const bodies = new Map(
  Object.entries(files).flatMap(([route, file]) => file === undefined ? [] : [[route, readFileSync(file)] as const])
)
const headers = { "content-type": "application/json", "cache-control": "no-store" }

createServer((request, response) => {
  const body = bodies.get(`${request.method} ${request.url}`)
  if (body === undefined) {
    response.writeHead(404).end()
    return
  }
  // Read the request to its end, as a form-reading endpoint would, then answer.
  request.on("data", () => {})
  request.on("end", () => response.writeHead(200, { ...headers, "content-length": body.length }).end(body))
}).listen(Number(process.env["PORT"]), "127.0.0.1", () => process.stdout.write("ready\n"))
