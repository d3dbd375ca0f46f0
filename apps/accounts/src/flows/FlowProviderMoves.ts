import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { AccountsConfig } from "../config.ts"
import { LinkedIdentities } from "../providers/LinkedIdentities.ts"
import { newRoundTripChecks } from "../providers/OpenIdRelyingParty.ts"
import type { ProviderIdentity, ProviderName } from "../providers/ProviderAnswer.ts"
import { providerCallbackUrl, ProviderRegistry } from "../providers/ProviderRegistry.ts"
import { RoundTrips } from "../providers/RoundTrips.ts"
import { MethodNotEnabledForMove, ProviderUnavailable } from "./errors.ts"
import { domainAllowed, FlowCore, type FlowCookies, type Loaded, type Moved } from "./FlowCore.ts"
import { FlowCodeMoves } from "./FlowCodeMoves.ts"
import { type FlowState, Step } from "./FlowState.ts"
import { SignupSessions } from "./SignupSessions.ts"

/** The flow stays at choose_method and shows why the round trip did not sign anyone in. */
const refused = (loaded: Loaded, code: string, message: string): FlowState => ({
  ...loaded.row.state,
  step: Step.choose_method({ error: { code, message } })
})

/**
 * The external identity provider move of the hosted flow: choose_method → a round trip to the
 * provider → signed in (a linked identity) or signup (a new one). The callback records the
 * provider's answer; the flow claims it on its next GET.
 */
export class FlowProviderMoves extends Effect.Service<FlowProviderMoves>()("accounts/FlowProviderMoves", {
  effect: Effect.gen(function*() {
    const config = yield* AccountsConfig
    const core = yield* FlowCore
    const codeMoves = yield* FlowCodeMoves
    const registry = yield* ProviderRegistry
    const trips = yield* RoundTrips
    const identities = yield* LinkedIdentities
    const accounts = yield* AccountsRepo
    const contacts = yield* ContactsRepo
    const signups = yield* SignupSessions
    const sql = yield* SqlClient.SqlClient

    /** Starts a round trip: the flow goes (back) to choose_method and the browser to the provider. */
    const start = (id: string, cookies: FlowCookies, name: string) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        yield* core.expectStep(loaded, ["choose_method", "verify_code"])
        const appConfig = loaded.app.signin_config
        const found = registry.lookup(name)
        if (Option.isNone(found) || !appConfig.methods[found.value.name]) {
          return yield* new MethodNotEnabledForMove({ message: `Signing in with ${name} is not enabled for this app.` })
        }
        const provider = found.value
        const client = provider.clientFor(loaded.app)
        if (Option.isNone(client)) {
          return yield* new MethodNotEnabledForMove({
            message: `Signing in with ${name} is not set up on this service for this app.`,
            hint: "Choose another way to sign in."
          })
        }
        const checks = newRoundTripChecks()
        const authorizationUrl = yield* provider.relyingParty.authorizationUrl(
          client.value,
          providerCallbackUrl(config.publicUrl, provider.name),
          checks,
          provider.authorizationParameters(appConfig)
        ).pipe(Effect.mapError((failure) => new ProviderUnavailable({ message: failure.message, hint: "Try again in a moment." })))
        yield* trips.start({
          state: checks.state,
          flowId: id,
          provider: provider.name,
          clientId: client.value.clientId,
          nonce: checks.nonce,
          codeVerifier: checks.codeVerifier,
          at: loaded.at,
          // A round trip lives as long as its flow.
          expiresAt: loaded.row.expires_at
        })
        const moved = yield* core.commit(loaded, { ...loaded.row.state, step: Step.choose_method({ error: null }) })
        return { ...moved, authorization_url: authorizationUrl }
      })

    /** A linked identity: its account signs in like one proven by a code. */
    const signInLinked = (loaded: Loaded, accountUuid: string) =>
      Effect.gen(function*() {
        const account = yield* accounts.findByUuid(accountUuid)
        if (Option.isNone(account) || account.value.kind !== "carbon" || account.value.status !== "active") {
          return yield* core.commit(loaded, refused(loaded, "account_unavailable", "The account of this identity cannot sign in."))
        }
        const emails = yield* contacts.contactsOf(accountUuid, "email")
        if (!domainAllowed(loaded.app.signin_config, emails.filter((e) => e.verified_at !== null).map((e) => e.address))) {
          return yield* core.commit(
            loaded,
            refused(loaded, "email_domain_not_allowed", "This app takes only accounts with an email of its domains.")
          )
        }
        return yield* codeMoves.signedIn(loaded, accountUuid)
      })

    /** An identity no account holds: a sign-up with the verified email, unless the email is some account's already. */
    const signUp = (loaded: Loaded, provider: ProviderName, identity: ProviderIdentity) =>
      Effect.gen(function*() {
        const appConfig = loaded.app.signin_config
        const holder = yield* contacts.findByVerifiedContact("email", identity.email).pipe(
          Effect.catchTag("ValidationFailed", Effect.die)
        )
        if (Option.isSome(holder)) {
          return yield* core.commit(
            loaded,
            refused(loaded, "email_in_use", "An account uses this email already. Sign in with a code sent to it.")
          )
        }
        if (!appConfig.allow_signup) {
          return yield* core.commit(loaded, refused(loaded, "signup_not_allowed", "This app does not take sign-ups."))
        }
        if (!domainAllowed(appConfig, [identity.email])) {
          return yield* core.commit(
            loaded,
            refused(loaded, "email_domain_not_allowed", "This app takes only emails of its own domains.")
          )
        }
        const entered = yield* signups.enter(
          loaded.row.id,
          loaded.row.state,
          "email",
          identity.email,
          loaded.at,
          { provider, subject: identity.subject, pfpUrl: identity.picture, displayName: identity.name }
        )
        return yield* core.commit(loaded, entered.next, entered.cookies)
      })

    /** Claims the flow's provider answer and moves the flow with it, all or nothing. */
    const claim = (loaded: Loaded) =>
      sql.withTransaction(Effect.gen(function*() {
        const claimed = yield* trips.claim(loaded.row.id, loaded.at)
        if (Option.isNone(claimed)) return { flow: yield* core.view(loaded.row, loaded.app), cookies: [] } satisfies Moved
        const { answer, provider } = claimed.value
        if (answer.kind === "failed") return yield* core.commit(loaded, refused(loaded, answer.code, answer.message))
        const linked = yield* identities.use(provider, answer.identity.subject, loaded.at)
        return Option.isSome(linked)
          ? yield* signInLinked(loaded, linked.value)
          : yield* signUp(loaded, provider, answer.identity)
      })).pipe(Effect.catchTag("SqlError", Effect.die))

    /** GET of a flow: the flow, after it claims a provider answer waiting for it at choose_method. */
    const get = (id: string, cookies: FlowCookies) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        if (loaded.row.state.step._tag === "choose_method" && (yield* trips.waiting(id))) return yield* claim(loaded)
        return { flow: yield* core.view(loaded.row, loaded.app), cookies: [] } satisfies Moved
      })

    return { start, get } as const
  }),
  dependencies: [
    FlowCore.Default,
    FlowCodeMoves.Default,
    ProviderRegistry.Default,
    RoundTrips.Default,
    LinkedIdentities.Default,
    SignupSessions.Default,
    AccountsRepo.Default,
    ContactsRepo.Default
  ]
}) {}
