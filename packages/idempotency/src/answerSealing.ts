import type { SecretsAtRest } from "@platform/crypto"
import { Effect } from "effect"

/** Seals stored answers at rest (they may hold fresh tokens) and opens them for a replay. */
export interface AnswerSealing {
  readonly seal: (body: Uint8Array) => Uint8Array
  readonly open: (stored: Uint8Array) => Effect.Effect<Uint8Array>
}

/** Kept as they are: for tests of the machinery only; a service seals with its secrets key. */
export const unsealedAnswers: AnswerSealing = { seal: (body) => body, open: Effect.succeed }

/** Answers sealed with the service's secrets at rest under `purpose` (kept as they are when it has no key). */
export const sealedAnswers = <Purpose extends string>(secrets: SecretsAtRest<Purpose>, purpose: Purpose): AnswerSealing => ({
  seal: (body) => Buffer.from(secrets.seal(purpose, Buffer.from(body).toString("base64")), "utf8"),
  open: (stored) =>
    Effect.map(secrets.open(purpose, Buffer.from(stored).toString("utf8")), (base64) => Buffer.from(base64, "base64"))
})
