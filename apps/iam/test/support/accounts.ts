import { type CarbonIdentity, FakeAccounts } from "@platform/accounts-identity-api"
import { Effect } from "effect"
import { newIdentity } from "./identities.ts"

/** A fresh active Carbon in the in-memory accounts, with these verified emails. */
export const carbonInAccounts = (displayName: string, verifiedEmails: ReadonlyArray<string> = []) =>
  Effect.gen(function*() {
    const carbon: CarbonIdentity = {
      ...newIdentity("carbon", displayName),
      kind: "carbon",
      status: "active",
      verified_emails: verifiedEmails,
      verified_phones: []
    }
    yield* Effect.flatMap(FakeAccounts, (accounts) => accounts.put(carbon))
    return { ...carbon, id: carbon.id! }
  })
