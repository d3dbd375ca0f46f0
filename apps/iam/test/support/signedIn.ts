import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import type { Identity, IdentityKind } from "../../src/identities/Identity.ts"
import { IamSessions } from "../../src/sessions/IamSessions.ts"
import { iamClient } from "./IamTest.ts"

/** A fresh identity of `kind` known to IAM, with an open session and a typed client sending its bearer. */
export const signedIn = (kind: IdentityKind = "carbon", displayName = "Ada") =>
  Effect.gen(function*() {
    const sessions = yield* IamSessions
    const uuid = randomUUID()
    const handle = `${displayName.toLowerCase().replace(/[^a-z0-9]/g, "")}${uuid.slice(0, 8)}`
    const identity: Identity = {
      uuid,
      id: `${kind === "carbon" ? "c" : "si"}:${handle}`,
      kind,
      display_name: displayName,
      status: "active"
    }
    const pair = yield* sessions.open(identity, kind === "carbon" ? "code" : "silicon_token")
    const client = yield* iamClient({ authorization: `Bearer ${pair.access_token}` })
    return { identity, pair, client, bearer: pair.access_token }
  })
