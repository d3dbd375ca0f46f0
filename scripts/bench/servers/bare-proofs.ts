/**
 * Baseline for proof verification: a bare node:http server that reads the JSON body and answers the
 * pre-serialized verification of VALID_FILE when proof_token is VALID_TOKEN, else {valid:false}.
 * Env: PORT, VALID_FILE, VALID_TOKEN.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const valid = readFileSync(process.env["VALID_FILE"]!)
const invalid = Buffer.from(JSON.stringify({ valid: false, expires_at: null }))
const token = process.env["VALID_TOKEN"]!
const headers = { "content-type": "application/json", "cache-control": "no-store" }

createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    let proofToken: unknown
    try {
      proofToken = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { proof_token?: unknown }).proof_token
    } catch {
      proofToken = undefined
    }
    const body = proofToken === token ? valid : invalid
    response.writeHead(200, { ...headers, "content-length": body.length }).end(body)
  })
}).listen(Number(process.env["PORT"]), "127.0.0.1", () => process.stdout.write("ready\n"))
