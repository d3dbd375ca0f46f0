import type { CarbonIdentity } from "@platform/accounts-identity-api"
import { Effect } from "effect"
import { carbonIdentity } from "../../src/identities/fromAccounts.ts"
import type { Identity } from "../../src/identities/Identity.ts"
import { IamSessions } from "../../src/sessions/IamSessions.ts"
import { iamClient } from "./IamTest.ts"

/** The identity with an open IAM session and a typed client sending its bearer. */
export const signedInAs = (identity: Identity) =>
  Effect.gen(function*() {
    const pair = yield* Effect.flatMap(IamSessions, (sessions) =>
      sessions.open(identity, identity.kind === "carbon" ? "code" : "silicon_token"))
    const client = yield* iamClient({ authorization: `Bearer ${pair.access_token}` })
    return { identity, pair, client, bearer: pair.access_token }
  })

/** A Carbon accounts holds, signed in to IAM. */
export const signedInCarbon = (carbon: CarbonIdentity) => signedInAs(carbonIdentity({ ...carbon, id: carbon.id ?? "" }))
