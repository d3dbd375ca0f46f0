import { Effect, Option } from "effect"
import { type AccountRow, isCarbonRow } from "../accounts/AccountRow.ts"
import { carbonMe } from "../accounts/Me.ts"
import { MeViews } from "../accounts/MeViews.ts"
import { AccountsConfig } from "../config.ts"
import { AccessTokens, FIRST_PARTY_CLIENT_ID } from "./AccessTokens.ts"
import { membershipId } from "./AppAccount.ts"
import type { SigninMethod, SigninRow } from "./Signin.ts"
import { SigninsRepo } from "./SigninsRepo.ts"
import type { TokenResponse } from "./TokenResponse.ts"

/** First-party tokens act for the account itself: every field of its own (Silicons have no email or phone). */
export const FIRST_PARTY_SCOPE = "profile email phone dob timezone"
const SILICON_FIRST_PARTY_SCOPE = "profile dob timezone"

/** Turns a sign-in into the Token response with the first-party audience. */
export class TokenIssuer extends Effect.Service<TokenIssuer>()("accounts/TokenIssuer", {
  effect: Effect.gen(function*() {
    const tokens = yield* AccessTokens
    const signins = yield* SigninsRepo
    const views = yield* MeViews
    const { publicUrl } = yield* AccountsConfig

    /**
     * The Token response for a sign-in. A Carbon's row read by the caller (the rotation reads
     * it in its own statement) is used as is; a Silicon's view needs its custody, read here.
     */
    const respond = (signin: SigninRow, refreshToken: string, now: Date, row: Option.Option<AccountRow> = Option.none()) =>
      Effect.gen(function*() {
        const account = Option.isSome(row) && isCarbonRow(row.value)
          ? carbonMe(row.value, publicUrl)
          : yield* views.load(signin.account_uuid)
        const scope = account.kind === "silicon" ? SILICON_FIRST_PARTY_SCOPE : FIRST_PARTY_SCOPE
        const access = yield* tokens.issue({
          accountUuid: signin.account_uuid,
          signinId: signin.id,
          clientId: FIRST_PARTY_CLIENT_ID,
          audience: FIRST_PARTY_CLIENT_ID,
          scope,
          now
        })
        const response: TokenResponse = {
          access_token: access.token,
          token_type: "Bearer",
          expires_in: access.expiresIn,
          refresh_token: refreshToken,
          refresh_token_expires_at: signin.expires_at.toISOString(),
          scope,
          membership_id: membershipId(FIRST_PARTY_CLIENT_ID, signin.account_uuid),
          account
        }
        return response
      })

    /** A new first-party sign-in (terminal code, device flow, …) and its first tokens. */
    const signIn = (input: {
      readonly accountUuid: string
      readonly clientLabel: string | null
      readonly method: SigninMethod
      readonly now: Date
      readonly expiresAt?: Date
    }) =>
      Effect.flatMap(
        signins.start({ ...input, clientId: FIRST_PARTY_CLIENT_ID }),
        ({ refreshToken, signin }) => respond(signin, refreshToken, input.now)
      )

    return { signIn, respond } as const
  }),
  // MeViews is not among them: a Silicon's view needs the silicons area, which plugs it in (see accounts/MeViews.ts).
  dependencies: [AccessTokens.Default, SigninsRepo.Default]
}) {}
