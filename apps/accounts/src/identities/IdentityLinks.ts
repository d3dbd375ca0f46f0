import { sha256Hex } from "@platform/crypto"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { now } from "@platform/service"
import { Data, Duration, Effect, Option } from "effect"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { FIRST_PARTY_APP_ID } from "../apps/AppId.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { SessionRequired } from "../auth/errors.ts"
import type { AuthenticatedAccount } from "../auth/CurrentAccount.ts"
import { AccountsConfig } from "../config.ts"
import { reportingProfileChanges } from "../events/profileChanges.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"
import { checkProviderAnswer } from "../providers/checkProviderAnswer.ts"
import { MethodNotEnabledForMove, ProviderUnavailable } from "../providers/errors.ts"
import { LinkedIdentities } from "../providers/LinkedIdentities.ts"
import { newRoundTripChecks } from "../providers/OpenIdRelyingParty.ts"
import type { ProviderIdentity, ProviderName } from "../providers/ProviderAnswer.ts"
import { type ExternalProvider, providerCallbackUrl, ProviderRegistry } from "../providers/ProviderRegistry.ts"
import type { IdentityLinkRow, LinkFailureCode, LinkOutcome } from "./IdentityLink.ts"
import { IdentityLinksRepo } from "./IdentityLinksRepo.ts"
import { eventWriter } from "../events/EventWriter.ts"

/** Spec 1, Limits: "Connect an external provider: 30 per hour per account". */
const linksPerAccount: RateLimitRule = {
  id: "identity_links",
  operation: "Connecting an external provider",
  limit: 30,
  window: "1 hour",
  per: "account"
}

/** A link's round trip may take a while at the provider (a second factor, a chosen account), not forever. */
export const LINK_LIFETIME = Duration.minutes(30)

/** A refusal met inside the link's transaction: it rolls back what was written (an email added) and ends the link. */
class LinkRefused extends Data.TaggedError("LinkRefused")<{ readonly code: LinkFailureCode; readonly message: string }> {}

const refuse = (code: LinkFailureCode, message: string) => Effect.fail(new LinkRefused({ code, message }))

/**
 * Linking an identity at an external provider to the signed-in account: a round trip started from the
 * account site's browser session, answered at the provider's callback in that same session.
 */
export class IdentityLinks extends Effect.Service<IdentityLinks>()("accounts/IdentityLinks", {
  effect: Effect.gen(function*() {
    const config = yield* AccountsConfig
    const registry = yield* ProviderRegistry
    const apps = yield* AppsRepo
    const links = yield* IdentityLinksRepo
    const identities = yield* LinkedIdentities
    const contacts = yield* ContactsRepo
    const signins = yield* SigninsRepo
    const limiter = yield* RateLimiter
    const events = yield* eventWriter

    /** The account site's own app: its provider settings (managed, by default) choose the client. */
    const siteApp = Effect.map(apps.find(FIRST_PARTY_APP_ID), Option.getOrThrow)

    const start = (account: AuthenticatedAccount, name: ProviderName) =>
      Effect.gen(function*() {
        if (account.via !== "cookie") {
          return yield* new SessionRequired({
            message: "An identity is linked in the browser signed in to the account site.",
            hint: "Start the link from the account site's page, with its session cookie."
          })
        }
        yield* enforceRateLimit(limiter, linksPerAccount, account.uuid)
        const provider = Option.getOrThrow(registry.lookup(name))
        const app = yield* siteApp
        const client = provider.clientFor(app)
        if (Option.isNone(client)) {
          return yield* new MethodNotEnabledForMove({ message: `${name} is not set up on this service.` })
        }
        const checks = newRoundTripChecks()
        const authorizationUrl = yield* provider.relyingParty.authorizationUrl(
          client.value,
          providerCallbackUrl(config.publicUrl, provider.name),
          checks,
          provider.authorizationParameters(app.signin_config)
        ).pipe(Effect.mapError((failure) => new ProviderUnavailable({ message: failure.message, hint: "Try again in a moment." })))
        const at = yield* now
        const link = yield* links.start({
          state: checks.state,
          accountUuid: account.uuid,
          signinId: account.signinId,
          provider: provider.name,
          clientId: client.value.clientId,
          nonce: checks.nonce,
          codeVerifier: checks.codeVerifier,
          at,
          expiresAt: new Date(at.getTime() + Duration.toMillis(LINK_LIFETIME))
        })
        return { link, authorizationUrl }
      })

    /** The identity joins the account, with its verified email; all or nothing. */
    const linkIdentity = (link: IdentityLinkRow, identity: ProviderIdentity, at: Date) =>
      reportingProfileChanges(
        events,
        link.account_uuid,
        Effect.gen(function*() {
          const owner = yield* identities.ownerOf(link.provider, identity.subject)
          if (Option.isSome(owner)) {
            return owner.value.account_uuid === link.account_uuid
              ? owner.value.id
              : yield* refuse("identity_in_use", "This identity is linked to another account.")
          }
          yield* contacts.addContact({ accountUuid: link.account_uuid, channel: "email", address: identity.email, verified: true }).pipe(
            Effect.catchTags({
              EmailInUse: () => refuse("email_in_use", "Another account uses this identity's email address."),
              EmailLimitReached: () => refuse("email_limit_reached", "The account holds 10 email addresses already."),
              PhoneInUse: Effect.die,
              PhoneLimitReached: Effect.die,
              ValidationFailed: Effect.die,
              AccountNotFound: Effect.die
            })
          )
          if (!(yield* identities.link(link.provider, identity.subject, link.account_uuid, identity.email, at))) {
            return yield* refuse("identity_in_use", "This identity was linked to another account meanwhile.")
          }
          return Option.getOrThrow(yield* identities.ownerOf(link.provider, identity.subject)).id
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))

    const outcomeOf = (provider: ExternalProvider, link: IdentityLinkRow, state: string, query: URLSearchParams, session: string | undefined) =>
      Effect.gen(function*() {
        const at = yield* now
        const signin = session === undefined || session === "" ? Option.none() : yield* signins.findBySessionCookie(sha256Hex(session))
        const sameSession = Option.exists(signin, (found) =>
          found.id === link.signin_id && found.revoked_at === null && found.expires_at.getTime() > at.getTime())
        if (!sameSession) {
          // Nothing is exchanged: an answer forwarded to another browser links nothing.
          return yield* refuse("session_changed", "The browser's sign-in is not the one that started linking.")
        }
        const answer = yield* checkProviderAnswer(config.publicUrl, provider, yield* siteApp, link, state, query).pipe(
          Effect.catchTag("ProviderFailed", (failure) => refuse(failure.code, failure.message))
        )
        if (answer.kind === "failed") return yield* refuse(answer.code, answer.message)
        return { kind: "linked", identityId: yield* linkIdentity(link, answer.identity, at) } satisfies LinkOutcome
      }).pipe(
        Effect.catchTag("LinkRefused", (refused): Effect.Effect<LinkOutcome> =>
          Effect.succeed({ kind: "failed", code: refused.code, message: refused.message }))
      )

    /**
     * The provider's answer to a link (taken for its one answer by the callback), judged in the
     * browser's session (its `sa_session` value) and recorded on the link.
     */
    const answer = (provider: ExternalProvider, link: IdentityLinkRow, state: string, query: URLSearchParams, session: string | undefined) =>
      Effect.tap(outcomeOf(provider, link, state, query, session), (outcome) => links.finish(link.id, outcome))

    return { start, answer, hold: links.hold, take: links.take, findOwn: links.findOwn } as const
  }),
  dependencies: [
    ProviderRegistry.Default,
    AppsRepo.Default,
    IdentityLinksRepo.Default,
    LinkedIdentities.Default,
    ContactsRepo.Default,
    SigninsRepo.Default
  ]
}) {}
