import { expect, layer } from "@effect/vitest"
import { CommittedChanges } from "@platform/database"
import { Effect, Option } from "effect"
import { Proofs } from "../src/proofs/Proofs.ts"
import { PROOF_VIEW_CHANNEL } from "../src/proofs/proofViewChannel.ts"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { issued } from "./support/proofs.ts"

const INVALID = { valid: false, expires_at: null }

/**
 * Verification reads a proof through an exact cache (on a PostgreSQL server), which keeps the row and not
 * the verdict: a proof remembered as valid is judged against the clock at every call, so the cache never
 * stretches a token's lifetime. The proof is issued over HTTP; its verdicts are asked of the service at
 * chosen instants (the server itself keeps real time).
 */
layer(AccountsTest(), { excludeTestServices: true })("a cached proof and its expiry", (it) => {
  it.effect("valid up to the instant its token expires, then exactly valid:false, with nothing changed in between", () =>
    Effect.gen(function*() {
      const { proof, receiver } = yield* issued({ ttl: 600 })
      expect(proof.status).toBe(201)
      const token = proof.body.proof_token
      const expiresAt = new Date(proof.body.expires_at)
      // The server's database layer (TestDatabase.layer) provides it; the test kit's type names only the SQL clients.
      const changes = Option.getOrThrow(yield* Effect.serviceOption(CommittedChanges))
      const generation = () => Option.map(changes.watch(PROOF_VIEW_CHANNEL), (watched) => watched.generation())
      const counted = yield* Effect.gen(function*() {
        const proofs = yield* Proofs
        const at = (millis: number) => proofs.verify(receiver.appId, { proof_token: token }, new Date(millis))
        const first = yield* at(Date.now())
        expect(first.answer).toMatchObject({ valid: true, expires_at: proof.body.expires_at })
        // The verdict's own deadline, which bounds its replay (a kept answer): the token's expiry, and for good once invalid.
        expect(first.holdsUntil).toBe(expiresAt.getTime())
        expect((yield* at(expiresAt.getTime())).holdsUntil).toBe(Infinity)
        // Counted after the first lookup's fence: by then every change committed before it (the issue) is counted.
        const before = generation()
        expect((yield* at(expiresAt.getTime() - 1)).answer).toMatchObject({ valid: true })
        expect((yield* at(expiresAt.getTime())).answer).toEqual(INVALID)
        expect((yield* at(expiresAt.getTime() + 3_600_000)).answer).toEqual(INVALID)
        // Still valid at an earlier instant: the later calls read the same row, nothing was revoked or written.
        expect((yield* at(expiresAt.getTime() - 1)).answer).toMatchObject({ valid: true })
        return before
      }).pipe(Effect.provide(Proofs.Default), Effect.provideService(CommittedChanges, changes))
      // On a PostgreSQL server the later calls were answered from the cache: no change was announced meanwhile
      // (on the embedded database nothing is watched and every call reads the database).
      expect(generation()).toEqual(counted)
    }))
})
