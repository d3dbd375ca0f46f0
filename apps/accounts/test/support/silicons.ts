import { SqlClient } from "@effect/sql"
import { hashSecret, randomHex } from "@platform/crypto"
import { Effect, Option } from "effect"
import * as jose from "jose"
import type { CarbonRow } from "../../src/accounts/AccountRow.ts"
import { SiliconsRepo } from "../../src/silicons/SiliconsRepo.ts"
import { generateStk } from "../../src/silicons/stk.ts"
import { createCarbon } from "./carbons.ts"

/**
 * An active Silicon in a Carbon's custody (a new Carbon unless one is given),
 * straight into the database: its account row and its `silicons` row.
 */
export const createSilicon = (options: { readonly custodian?: CarbonRow; readonly displayName?: string } = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const silicons = yield* SiliconsRepo
    const custodian = options.custodian ?? (yield* createCarbon())
    const stk = generateStk()
    const handle = `s${randomHex(10)}`
    const uuid = yield* sql.withTransaction(silicons.insert({
      handle,
      displayName: options.displayName ?? "Test Silicon",
      timezone: "UTC",
      pfpUrl: null,
      stkHash: yield* hashSecret(stk),
      webhookUrl: null,
      webhookSecret: null,
      custodianUuid: custodian.uuid,
      at: new Date()
    })).pipe(Effect.orDie)
    const silicon = Option.getOrThrow(yield* silicons.find(uuid))
    return { silicon, id: `si:${handle}`, custodian, stk }
  }).pipe(Effect.provide(SiliconsRepo.Default))

/** A new Ed25519 key pair: the private key to sign with, the public JWK to register, and its id (thumbprint). */
export const newSiliconKey = Effect.promise(async () => {
  const { privateKey, publicKey } = await jose.generateKeyPair("EdDSA")
  const jwk = await jose.exportJWK(publicKey)
  return { privateKey, jwk, kid: await jose.calculateJwkThumbprint(jwk) }
})
