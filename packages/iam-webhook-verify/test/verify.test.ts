import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { verifyIamWebhook } from "../src/index.ts"

const sign = (secret: string, timestamp: number, body: string) =>
  `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`

const body = JSON.stringify({ id: "evt_1", type: "organization.updated.v1" })
const at = 1_800_000_000
const secrets = new Map([[1, "whsec_old"], [2, "whsec_new"]])
const headers = (overrides: Record<string, string> = {}) => ({
  "X-Iam-Event-ID": "evt_1",
  "X-Iam-Timestamp": String(at),
  "X-Iam-Key-Version": "2",
  "X-Iam-Signature": sign("whsec_new", at, body),
  ...overrides
})

describe("verifyIamWebhook", () => {
  it("accepts a delivery signed with the named version within five minutes, and nothing else", () => {
    expect(verifyIamWebhook({ headers: headers(), rawBody: body, secrets, now: at * 1000 + 300_000 }))
      .toEqual({ ok: true, eventId: "evt_1", keyVersion: 2, timestamp: at })
    expect(verifyIamWebhook({ headers: new Headers(headers()), rawBody: Buffer.from(body), secrets: { 2: "whsec_new" }, now: new Date(at * 1000) }).ok)
      .toBe(true)
    const refusal = (request: Partial<Parameters<typeof verifyIamWebhook>[0]>) => {
      const outcome = verifyIamWebhook({ headers: headers(), rawBody: body, secrets, now: at * 1000, ...request })
      return outcome.ok ? "accepted" : outcome.reason
    }
    expect(refusal({ now: at * 1000 + 301_000 })).toBe("timestamp_out_of_tolerance")
    expect(refusal({ now: at * 1000 - 301_000 })).toBe("timestamp_out_of_tolerance")
    expect(refusal({ headers: headers({ "X-Iam-Key-Version": "3" }) })).toBe("unknown_key_version")
    expect(refusal({ headers: headers({ "X-Iam-Key-Version": "1" }) })).toBe("bad_signature")
    expect(refusal({ rawBody: `${body} ` })).toBe("bad_signature")
    expect(refusal({ headers: headers({ "X-Iam-Signature": sign("whsec_new", at, body).toUpperCase() }) })).toBe("bad_signature")
    expect(refusal({ headers: headers({ "X-Iam-Signature": `${sign("whsec_new", at, body)},v0=x` }) })).toBe("bad_signature")
    const { "X-Iam-Signature": _, ...unsigned } = headers()
    expect(refusal({ headers: unsigned })).toBe("missing_header")
  })
})
