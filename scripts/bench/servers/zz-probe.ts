import { createServer } from "node:http"
import { requestIdFrom, writeRequestLine, durationSince } from "@platform/http"
const valid = Buffer.from(JSON.stringify({ valid: true, proof_id: "0b7f6c2e-1111-4222-8333-944445555666", kind: "user_verification", expires_at: new Date().toISOString(), issuing_app: { app_id: "bench-issuer", name: "bench-issuer" }, receiving_app: { app_id: "bench-receiver", name: "bench" }, user: { uuid: "x", id: "c:bench", display_name: "Bench Mark" }, scopes: ["openid", "profile"] }))
const memo = new Map<string, Buffer>()
const log = process.env["LOG"] === "1"
createServer((request, response) => {
  const started = performance.now()
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    const key = `${request.headers.authorization}\n${Buffer.concat(chunks).toString("utf8")}`
    let body = memo.get(key)
    if (body === undefined) { memo.set(key, valid); body = valid }
    const requestId = requestIdFrom(request.headers["x-request-id"] as string | undefined)
    response.writeHead(200, { "cache-control": "no-store", pragma: "no-cache", "content-type": "application/json", "content-length": body.length, "x-content-type-options": "nosniff", "x-request-id": requestId, "Accounts-Version": "2026-10-01", vary: "Accounts-Version" }).end(body)
    if (log) writeRequestLine({ method: "POST", route: "/v1/proofs/verify", status: 200, duration_ms: durationSince(started), request_id: requestId })
  })
}).listen(Number(process.env["PORT"]), "127.0.0.1", () => process.stdout.write("ready\n"))
