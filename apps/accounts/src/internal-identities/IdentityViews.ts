import type { CarbonIdentity, Identity, SiliconIdentity } from "@platform/accounts-identity-api"
import { Effect } from "effect"
import { accountIdOf, type AccountRow } from "../accounts/AccountRow.ts"
import type { ContactChannel } from "@platform/verification-codes"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"

/** The fields every identity view has, from the account row. */
export const identityFields = (row: Pick<AccountRow, "uuid" | "kind" | "handle" | "display_name" | "status">) => ({
  uuid: row.uuid,
  id: accountIdOf(row),
  display_name: row.display_name,
  status: row.status
})

export const siliconIdentity = (row: AccountRow): SiliconIdentity => ({ ...identityFields(row), kind: "silicon" })

/** Accounts as the internal identity routes answer them: a Carbon with its verified emails and phones. */
export class IdentityViews extends Effect.Service<IdentityViews>()("accounts/IdentityViews", {
  effect: Effect.gen(function*() {
    const contacts = yield* ContactsRepo

    const verified = (uuid: string, channel: ContactChannel) =>
      Effect.map(
        contacts.contactsOf(uuid, channel),
        (rows) => rows.filter((row) => row.verified_at !== null).map((row) => row.address)
      )

    /** A Carbon's view: its verified addresses primary first, as contactsOf orders them. */
    const carbon = (row: AccountRow): Effect.Effect<CarbonIdentity> =>
      Effect.map(
        Effect.all([verified(row.uuid, "email"), verified(row.uuid, "phone")]),
        ([emails, phones]) => ({ ...identityFields(row), kind: "carbon", verified_emails: emails, verified_phones: phones })
      )

    const identity = (row: AccountRow): Effect.Effect<Identity> =>
      row.kind === "carbon" ? carbon(row) : Effect.succeed(siliconIdentity(row))

    return { carbon, identity } as const
  }),
  dependencies: [ContactsRepo.Default]
}) {}
