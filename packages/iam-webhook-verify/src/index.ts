import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * Checks one IAM webhook delivery as a receiving application gets it (spec 2, Events): the timestamp
 * within the tolerance, a key version the receiver holds, and `X-Iam-Signature` equal to `v1=` plus
 * the lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>` under that version's secret, the whole
 * header compared in constant time. It has no dependency besides node:crypto.
 */
export interface IamWebhookRequest {
  /** The request's headers: node's `IncomingHttpHeaders`, a fetch `Headers`, or a plain record (any case). */
  readonly headers: Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  /** The body exactly as received: verify before parsing. */
  readonly rawBody: Uint8Array | string
  /** The receiver's webhook secrets by key version (the current one, and a previous one during a rotation). */
  readonly secrets: ReadonlyMap<number, string> | Readonly<Record<string, string>>
  /** Now, as a Date or unix milliseconds. */
  readonly now: Date | number
  /** Default 300 (five minutes, spec 2's suggestion). */
  readonly toleranceSeconds?: number
}

export type IamWebhookVerification =
  | { readonly ok: true; readonly eventId: string; readonly keyVersion: number; readonly timestamp: number }
  | {
    readonly ok: false
    readonly reason: "missing_header" | "timestamp_out_of_tolerance" | "unknown_key_version" | "bad_signature"
  }

export const DEFAULT_TOLERANCE_SECONDS = 300

const headerOf = (headers: IamWebhookRequest["headers"], name: string): string | undefined => {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined
  const record = headers as Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return typeof value === "string" ? value : undefined
}

const secretOf = (secrets: IamWebhookRequest["secrets"], version: number): string | undefined =>
  secrets instanceof Map ? secrets.get(version) : (secrets as Readonly<Record<string, string>>)[String(version)]

export const verifyIamWebhook = (request: IamWebhookRequest): IamWebhookVerification => {
  const eventId = headerOf(request.headers, "x-iam-event-id")
  const timestampText = headerOf(request.headers, "x-iam-timestamp")
  const versionText = headerOf(request.headers, "x-iam-key-version")
  const signature = headerOf(request.headers, "x-iam-signature")
  if (eventId === undefined || timestampText === undefined || versionText === undefined || signature === undefined) {
    return { ok: false, reason: "missing_header" }
  }
  const nowSeconds = Math.floor((typeof request.now === "number" ? request.now : request.now.getTime()) / 1000)
  const timestamp = /^\d{1,12}$/.test(timestampText) ? Number(timestampText) : Number.NaN
  const tolerance = request.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  if (!Number.isFinite(timestamp) || Math.abs(nowSeconds - timestamp) > tolerance) {
    return { ok: false, reason: "timestamp_out_of_tolerance" }
  }
  const keyVersion = /^\d{1,9}$/.test(versionText) ? Number(versionText) : Number.NaN
  const secret = Number.isFinite(keyVersion) ? secretOf(request.secrets, keyVersion) : undefined
  if (secret === undefined) return { ok: false, reason: "unknown_key_version" }
  const expected = Buffer.from(
    `v1=${createHmac("sha256", secret).update(`${timestampText}.`).update(request.rawBody).digest("hex")}`,
    "utf8"
  )
  const received = Buffer.from(signature, "utf8")
  // Equal lengths first (the length of a correct header is public), then the bytes in constant time.
  const matches = received.length === expected.length && timingSafeEqual(received, expected)
  return matches ? { ok: true, eventId, keyVersion, timestamp } : { ok: false, reason: "bad_signature" }
}
