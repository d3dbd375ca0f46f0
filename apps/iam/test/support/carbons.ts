import { type CarbonIdentity, FakeAccounts } from "@platform/accounts-identity-api"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"

/** A Carbon of one test alone: its own uuid, id, email and phone (accounts is shared by the file). */
export const newCarbon = (name: string, overrides: Partial<CarbonIdentity> = {}): CarbonIdentity => {
  const uuid = randomUUID()
  const tag = uuid.slice(0, 8)
  return {
    uuid,
    id: `c:${name}${tag}`,
    kind: "carbon",
    display_name: name,
    status: "active",
    verified_emails: [`${name}.${tag}@example.com`],
    verified_phones: [`+1415${String(parseInt(tag, 16) % 10_000_000).padStart(7, "0")}`],
    ...overrides
  }
}

/** The Carbon, held by the in-memory accounts. */
export const accountsHold = (carbon: CarbonIdentity) =>
  Effect.as(Effect.flatMap(FakeAccounts, (accounts) => accounts.put(carbon)), carbon)
