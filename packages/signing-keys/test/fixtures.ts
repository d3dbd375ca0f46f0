import { SqlClient } from "@effect/sql"
import { TestDatabase } from "@platform/database"
import { Context, Effect, Layer, Option, type Redacted } from "effect"
import * as jose from "jose"
import { SigningKeys, SigningKeysMigration, type SigningKeysOptions } from "../src/index.ts"

/** A fresh database with the signing_keys table, one per test that provides it. */
export const database = TestDatabase.layer({ "0001_signing_keys": SigningKeysMigration })

/** Starts a SigningKeys service (as one process would) on the test's database, for the test's scope. */
export const startSigningKeys = (options: Partial<SigningKeysOptions> = {}) =>
  Layer.build(SigningKeys.layer({ encryptionKey: Option.none(), refreshSeconds: 10, ...options })).pipe(
    Effect.map((context) => Context.get(context, SigningKeys))
  )

export const withEncryptionKey = (key: Redacted.Redacted<string>): Partial<SigningKeysOptions> => ({
  encryptionKey: Option.some(key)
})

export interface StoredKey {
  readonly kid: string
  readonly alg: string
  readonly private_key: string | null
  readonly retired: boolean
}

export const storedKeys = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<StoredKey>`SELECT kid, alg, private_key, retired_at IS NOT NULL AS retired FROM signing_keys ORDER BY created_at, alg`
)

/** Verifies `token` as a relying party would, against a JWKS it fetched. */
export const verifyWith = (jwks: jose.JSONWebKeySet, token: string) =>
  Effect.promise(() => jose.jwtVerify(token, jose.createLocalJWKSet(jwks)))

export const kidsOf = (jwks: jose.JSONWebKeySet) => jwks.keys.map((key) => key.kid)
