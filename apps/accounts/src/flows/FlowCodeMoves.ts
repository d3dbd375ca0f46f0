import { SqlClient } from "@effect/sql"
import { ValidationFailed } from "@platform/http"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Duration, Effect, Either, Option } from "effect"
import {
  type ContactChannel,
  noCodeSent,
  normalizeAddress,
  type VerificationChallenge,
  VerificationCodes
} from "@platform/verification-codes"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { validateDob } from "../accounts/profileFields.ts"
import { addsPerAccount, addsPerIp, verificationChannelOf } from "../contacts/policy.ts"
import { BrowserSessions } from "./BrowserSessions.ts"
import { SESSION_COOKIE } from "../auth/AccountAuth.ts"
import {
  AccountUnavailable,
  DetailNotOnPage,
  EmailDomainNotAllowed,
  FlowInvalidRequest,
  IdentityInUse,
  MethodNotEnabledForMove,
  SignupNotAllowed
} from "./errors.ts"
import { BROWSER_SESSION_LIFETIME } from "./BrowserSessions.ts"
import { type CookieToSet, domainAllowed, FlowCore, type FlowCookies, type Loaded } from "./FlowCore.ts"
import { type ContactField, type FlowState, type SentCode, Step, type StepOf } from "./FlowState.ts"
import { LinkedIdentities } from "../providers/LinkedIdentities.ts"
import { reportingProfileChanges } from "../events/profileChanges.ts"
import { SIGNUP_COOKIE, SignupSessions } from "./SignupSessions.ts"
import { CarbonSignups } from "../imports/CarbonSignups.ts"
import { Photos } from "../profile/Photos.ts"
import { eventWriter } from "../events/EventWriter.ts"

const sentCode = (channel: ContactField, destination: string, challenge: VerificationChallenge): SentCode => ({
  challenge_id: challenge.challenge_id,
  channel,
  destination,
  expires_at: challenge.expires_at,
  resend_available_at: challenge.resend_available_at
})


const signinMessage = (appName: string) => (code: string) => ({
  subject: `Your code for ${appName}`,
  text: `Your code to sign in to ${appName} is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this message.`
})

const normalized = (field: ContactChannel, value: string) =>
  Either.mapLeft(
    normalizeAddress(field, value),
    (problem) => new ValidationFailed({ message: `The ${field} is not valid.`, details: { fields: { [field]: problem } } })
  )

export interface SignupInput {
  readonly id?: string | undefined
  readonly display_name: string
  readonly dob?: string | undefined
  readonly timezone?: string | undefined
}

/** The moves that send or check codes, and sign-up: choose_method → verify_code → details, complete or signup. */
export class FlowCodeMoves extends Effect.Service<FlowCodeMoves>()("accounts/FlowCodeMoves", {
  effect: Effect.gen(function*() {
    const core = yield* FlowCore
    const codes = yield* VerificationCodes
    const accounts = yield* AccountsRepo
    const contacts = yield* ContactsRepo
    const sessions = yield* BrowserSessions
    const signups = yield* SignupSessions
    const carbonSignups = yield* CarbonSignups
    const limiter = yield* RateLimiter
    const identities = yield* LinkedIdentities
    const photos = yield* Photos
    const sql = yield* SqlClient.SqlClient
    const events = yield* eventWriter

    const purposeOf = (flowId: string) => `flow:${flowId}`
    const detailPurposeOf = (flowId: string) => `flow_detail:${flowId}`

    const sessionCookie = (value: string): CookieToSet => ({ name: SESSION_COOKIE, value, maxAge: BROWSER_SESSION_LIFETIME })

    const requestCode = (id: string, cookies: FlowCookies, ip: string, channel: ContactField, destination: string) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        yield* core.expectStep(loaded, ["choose_method", "verify_code"])
        const config = loaded.app.signin_config
        if (!config.methods[channel]) {
          return yield* new MethodNotEnabledForMove({ message: `Signing in by ${channel} is not enabled for this app.` })
        }
        const address = yield* normalized(channel, destination)
        if (channel === "email" && !domainAllowed(config, [address])) {
          return yield* new EmailDomainNotAllowed({ message: "This app takes only emails of its own domains." })
        }
        const challenge = yield* codes.send({
          channel: verificationChannelOf(channel),
          destination: address,
          purpose: purposeOf(id),
          clientAddress: ip,
          message: signinMessage(loaded.app.name)
        })
        return yield* core.commit(loaded, {
          ...loaded.row.state,
          step: Step.verify_code({ challenge: sentCode(channel, address, challenge) })
        })
      })

    const resendCode = (id: string, cookies: FlowCookies, ip: string) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        const sent = (yield* core.expectStep(loaded, ["verify_code"])).challenge
        const challenge = yield* codes.resend({
          challengeId: sent.challenge_id,
          purpose: purposeOf(id),
          clientAddress: ip,
          message: signinMessage(loaded.app.name)
        })
        return yield* core.commit(loaded, {
          ...loaded.row.state,
          step: Step.verify_code({ challenge: sentCode(sent.channel, sent.destination, challenge) })
        })
      })

    /** The account is proven: a browser session for it, then the pages or completion. */
    const signedIn = (loaded: Loaded, accountUuid: string, cookies: ReadonlyArray<CookieToSet> = []) =>
      Effect.gen(function*() {
        const session = yield* sessions.start(accountUuid, loaded.at)
        const state: FlowState = { ...loaded.row.state, session_account_uuid: accountUuid }
        const account = { uuid: accountUuid, auth_time: loaded.at.toISOString() }
        return yield* core.commit(loaded, yield* core.advance(loaded, state, account), [...cookies, sessionCookie(session)])
      })

    const verifyCode = (id: string, cookies: FlowCookies, code: string) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        const sent = (yield* core.expectStep(loaded, ["verify_code"])).challenge
        yield* codes.verify({ challengeId: sent.challenge_id, purpose: purposeOf(id), code })
        const config = loaded.app.signin_config
        // The code went to this address, checked when it was sent: it cannot fail validation now.
        const account = yield* contacts.findByVerifiedContact(sent.channel, sent.destination).pipe(
          Effect.catchTag("ValidationFailed", Effect.die)
        )
        if (Option.isSome(account)) {
          if (account.value.kind !== "carbon" || account.value.status !== "active") {
            return yield* new AccountUnavailable({ message: "The account using this address cannot sign in." })
          }
          if (sent.channel === "phone") {
            const emails = yield* contacts.contactsOf(account.value.uuid, "email")
            if (!domainAllowed(config, emails.filter((e) => e.verified_at !== null).map((e) => e.address))) {
              return yield* new EmailDomainNotAllowed({ message: "This app takes only accounts with an email of its domains." })
            }
          }
          return yield* signedIn(loaded, account.value.uuid)
        }
        if (!config.allow_signup) {
          return yield* new SignupNotAllowed({ message: "No account uses this address, and this app does not take sign-ups." })
        }
        if (!domainAllowed(config, sent.channel === "email" ? [sent.destination] : [])) {
          return yield* new EmailDomainNotAllowed({ message: "This app takes only accounts with an email of its domains." })
        }
        const entered = yield* signups.enter(id, loaded.row.state, sent.channel, sent.destination, loaded.at)
        return yield* core.commit(loaded, entered.next, entered.cookies)
      })

    const signup = (id: string, cookies: FlowCookies, input: SignupInput) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        const started = (yield* core.expectStep(loaded, ["signup"])).signup
        const state = loaded.row.state
        const session = yield* signups.bound(started.id, cookies.signup, loaded.at)
        const carbon = yield* sql.withTransaction(Effect.gen(function*() {
          const made = yield* carbonSignups.create({
            id: input.id,
            displayName: input.display_name,
            timezone: input.timezone ?? state.timezone ?? "UTC",
            dob: input.dob,
            channel: session.channel,
            address: session.address
          }, started.imported?.account_uuid ?? null)
          // A provider sign-up links its identity with the account, or makes no account.
          if (session.provider !== null && session.provider_subject !== null) {
            const linked = yield* identities.link(session.provider, session.provider_subject, made.uuid, session.address, loaded.at)
            if (!linked) {
              return yield* new IdentityInUse({
                message: "This identity signs in another account already.",
                hint: "Sign in with it instead."
              })
            }
          }
          yield* photos.adoptSignupPhoto(session.id, made.uuid)
          return made
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        yield* signups.complete(session.id, carbon.uuid, loaded.at)
        const clear: CookieToSet = { name: SIGNUP_COOKIE, value: "", maxAge: Duration.zero }
        return yield* signedIn(loaded, carbon.uuid, [clear])
      })

    /** The field must be on the page shown now. */
    const onPage = (step: StepOf<"details">, field: string) =>
      step.page.fields.some((entry) => entry.field === field)
        ? Effect.void
        : Effect.fail(new DetailNotOnPage({ message: `${field} is not on this page.`, details: { field } }))

    const addDetail = (id: string, cookies: FlowCookies, ip: string, field: string, value: string) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        const step = yield* core.expectStep(loaded, ["details"])
        yield* onPage(step, field)
        const state = loaded.row.state
        const uuid = step.account.uuid
        if (field === "dob") {
          const dob = yield* Either.mapLeft(
            validateDob(value, loaded.at),
            (problem) => new ValidationFailed({ message: "The date of birth is not valid.", details: { fields: { value: problem } } })
          )
          yield* reportingProfileChanges(events, uuid, accounts.updateProfile(uuid, { dob })).pipe(Effect.catchTag("SqlError", Effect.die))
          return yield* core.commit(loaded, state)
        }
        if (field !== "email" && field !== "phone") {
          return yield* new FlowInvalidRequest({ message: "Only an email, a phone or a date of birth can be added here." })
        }
        yield* enforceRateLimit(limiter, addsPerIp, ip)
        yield* enforceRateLimit(limiter, addsPerAccount, uuid)
        const contact = yield* contacts.addPendingContact(uuid, field, value).pipe(Effect.catchTag("AccountNotFound", Effect.die))
        if (contact.verified_at !== null) return yield* core.commit(loaded, state)
        const challenge = yield* codes.send({
          channel: verificationChannelOf(field),
          destination: contact.address,
          purpose: detailPurposeOf(id),
          clientAddress: ip,
          message: signinMessage(loaded.app.name)
        })
        return yield* core.commit(loaded, {
          ...state,
          step: Step.details({ ...step, detail_challenge: { ...sentCode(field, contact.address, challenge), field } })
        })
      })

    const verifyDetail = (id: string, cookies: FlowCookies, field: string, code: string) =>
      Effect.gen(function*() {
        const loaded = yield* core.load(id, cookies)
        const step = yield* core.expectStep(loaded, ["details"])
        const sent = step.detail_challenge
        if (sent === null || sent.field !== field) return yield* Effect.fail(noCodeSent())
        yield* codes.verify({ challengeId: sent.challenge_id, purpose: detailPurposeOf(id), code })
        yield* reportingProfileChanges(
          events,
          step.account.uuid,
          contacts.verifyPendingContact(step.account.uuid, sent.field, sent.destination)
        ).pipe(Effect.catchTag("SqlError", Effect.die))
        return yield* core.commit(loaded, { ...loaded.row.state, step: Step.details({ ...step, detail_challenge: null }) })
      })

    return { requestCode, resendCode, verifyCode, signup, addDetail, verifyDetail, signedIn } as const
  }),
  dependencies: [
    FlowCore.Default,
    BrowserSessions.Default,
    SignupSessions.Default,
    CarbonSignups.Default,
    LinkedIdentities.Default,
    Photos.Default,
    AccountsRepo.Default,
    ContactsRepo.Default
  ]
}) {}

