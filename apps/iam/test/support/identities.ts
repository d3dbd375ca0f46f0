import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import type { Identity, IdentityKind } from "../../src/identities/Identity.ts"
import { IdentitiesRepo } from "../../src/identities/IdentitiesRepo.ts"

/** A fresh active identity of `kind`, with a unique id made from its display name. */
export const newIdentity = (kind: IdentityKind = "carbon", displayName = "Ada"): Identity => {
  const uuid = randomUUID()
  const handle = `${displayName.toLowerCase().replace(/[^a-z0-9]/g, "")}${uuid.slice(0, 8)}`
  return { uuid, id: `${kind === "carbon" ? "c" : "si"}:${handle}`, kind, display_name: displayName, status: "active" }
}

/** A fresh identity IAM has seen (in its projection), as a session's CurrentIdentity would carry it. */
export const knownIdentity = (kind: IdentityKind = "carbon", displayName = "Ada") =>
  Effect.gen(function*() {
    const identity = newIdentity(kind, displayName)
    yield* Effect.flatMap(IdentitiesRepo, (repo) => repo.remember(identity))
    return { ...identity, sessionId: "ses_test" }
  })
