/**
 * Baseline for the registry benchmark: a bare node:http server answering every GET with the JSON of
 * BODY_FILE (a search answer of the registry), from memory. Env: PORT, BODY_FILE.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const body = readFileSync(process.env["BODY_FILE"]!)
const headers = { "content-type": "application/json", "content-length": body.length }

createServer((request, response) => {
  if (request.method !== "GET") {
    response.writeHead(405).end()
    return
  }
  response.writeHead(200, headers).end(body)
}).listen(Number(process.env["PORT"]), "127.0.0.1", () => process.stdout.write("ready\n"))
