import { Effect, Option, Random } from "effect"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import type { ContactChannel } from "@platform/verification-codes"
import type { NewCarbon } from "../accounts/NewCarbon.ts"
import { ImportClaims } from "./ImportClaims.ts"

/** What a sign-up makes its account from: the address it verified and what the person chose. */
export interface SignupCarbon {
  /** The id chosen; none: a handle drawn from the display name. */
  readonly id?: string | undefined
  readonly displayName: string
  readonly timezone?: string | undefined
  readonly dob?: string | undefined
  readonly channel: ContactChannel
  /** Normalized, as the code proved it. */
  readonly address: string
}

/** A handle from the display name plus four digits, for a sign-up that chose no id. */
const handleFrom = (displayName: string) =>
  Effect.map(Random.nextIntBetween(1000, 10000), (digits) => {
    const base = displayName.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "").slice(0, 20)
    return `c:${base.length >= 2 ? base : "user"}${digits}`
  })

/**
 * The account a sign-up makes, for the hosted flow and IAM's internal route alike, inside the caller's
 * transaction: the imported account waiting for this address when there is one (finishing that
 * import, unless another sign-up claimed it first), else a new active Carbon with the address
 * verified. With no id chosen, a handle from the display name, drawn afresh a few times when taken.
 */
export class CarbonSignups extends Effect.Service<CarbonSignups>()("accounts/CarbonSignups", {
  effect: Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const claims = yield* ImportClaims

    /** `importedUuid`: the imported account the sign-up found for its address when it began, if any. */
    const create = (signup: SignupCarbon, importedUuid: string | null) => {
      const newCarbon = (id: string): NewCarbon => ({
        id,
        displayName: signup.displayName,
        timezone: signup.timezone,
        dob: signup.dob,
        ...(signup.channel === "email" ? { email: signup.address } : { phone: signup.address })
      })
      const made = (id: string): Effect.Effect<{ readonly uuid: string }, Effect.Effect.Error<ReturnType<typeof accounts.createCarbon>>> =>
        importedUuid === null
          ? accounts.createCarbon(newCarbon(id))
          : Effect.flatMap(
            claims.claim(importedUuid, { ...newCarbon(id), channel: signup.channel, address: signup.address }),
            Option.match({ onNone: () => accounts.createCarbon(newCarbon(id)), onSome: Effect.succeed })
          )
      return signup.id !== undefined
        ? made(signup.id)
        : Effect.flatMap(handleFrom(signup.displayName), made).pipe(
          Effect.retry({ times: 4, while: (error) => error._tag === "IdTaken" || error._tag === "IdReserved" })
        )
    }

    /** The same, looking for an imported account waiting for the address now. */
    const createClaimingImport = (signup: SignupCarbon) =>
      Effect.flatMap(
        claims.pendingFor(signup.channel, signup.address),
        (pending) => create(signup, Option.getOrNull(Option.map(pending, (found) => found.account_uuid)))
      )

    return { create, createClaimingImport } as const
  }),
  dependencies: [AccountsRepo.Default, ImportClaims.Default]
}) {}
