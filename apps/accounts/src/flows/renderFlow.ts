import { Effect, Option } from "effect"
import { maskEmail, maskPhone } from "@platform/verification-codes"
import type { AccountRow } from "../accounts/AccountRow.ts"
import { accountSummary } from "../accounts/AccountSummary.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import type { ContactRow } from "../accounts/ContactRow.ts"
import type { AppRow } from "../apps/AppRecord.ts"
import type { DetailName } from "../apps/signinConfig/fields.ts"
import { enabledMethods } from "../apps/signinConfig/publicSigninView.ts"
import { methodOffered } from "../providers/methodOffered.ts"
import { ProviderRegistry } from "../providers/ProviderRegistry.ts"
import { type DetailValues, grantedDetails } from "./detailPages.ts"
import type { FlowRow } from "./FlowRow.ts"
import { type SentCode, type SignupStarted, Step, type StepOf } from "./FlowState.ts"
import { flowAppOf, type FlowView } from "./FlowView.ts"
import { Memberships } from "./Memberships.ts"
import { AccountsConfig } from "../config.ts"

const LABELS: Readonly<Record<DetailName, string>> = {
  email: "Email address",
  phone: "Phone number",
  dob: "Date of birth",
  timezone: "Time zone"
}

const masked = (field: DetailName, value: string | null): string | null =>
  value === null ? null : field === "email" ? maskEmail(value) : field === "phone" ? maskPhone(value) : value

const challengeView = (sent: SentCode) => ({
  channel: sent.channel,
  destination: sent.channel === "email" ? maskEmail(sent.destination) : maskPhone(sent.destination),
  expires_at: sent.expires_at,
  resend_available_at: sent.resend_available_at
})

/** The contact an app is given: the primary verified one, else the oldest verified one. */
const shownContact = (rows: ReadonlyArray<ContactRow>): string | null =>
  (rows.find((row) => row.is_primary && row.verified_at !== null) ?? rows.find((row) => row.verified_at !== null))?.address ??
    null

/** Reads what the flow pages show: accounts, their details, memberships. */
export const makeFlowRendering = Effect.gen(function*() {
  const registry = yield* ProviderRegistry
  const accounts = yield* AccountsRepo
  const contacts = yield* ContactsRepo
  const memberships = yield* Memberships
  const { publicUrl } = yield* AccountsConfig

  const valuesOf = (account: AccountRow): Effect.Effect<DetailValues> =>
    Effect.gen(function*() {
      const emails = yield* contacts.contactsOf(account.uuid, "email")
      const phones = yield* contacts.contactsOf(account.uuid, "phone")
      return { email: shownContact(emails), phone: shownContact(phones), dob: account.dob, timezone: account.timezone }
    })

  const render = (row: FlowRow, app: AppRow): Effect.Effect<FlowView> =>
    Effect.gen(function*() {
      const state = row.state
      const step = state.step
      const signedIn = step._tag === "details" || step._tag === "review" ? step : undefined
      const shownUuid = signedIn?.account.uuid ?? state.session_account_uuid
      const account = shownUuid === null ? Option.none() : yield* accounts.findByUuid(shownUuid)
      const values = signedIn !== undefined && Option.isSome(account) ? yield* valuesOf(account.value) : undefined
      const granted = signedIn !== undefined && Option.isSome(account)
        ? grantedDetails(yield* memberships.find(app.app_id, account.value.uuid))
        : []
      const shared = signedIn?.shared ?? []
      const fieldView = (field: DetailName, mode: "required" | "optional") => {
        const value = values?.[field] ?? null
        return {
          field,
          mode,
          label: LABELS[field],
          value: masked(field, value),
          missing: value === null,
          shared: mode === "required" || shared.includes(field),
          previously_granted: granted.includes(field)
        }
      }
      const detailsView = (details: StepOf<"details">) => {
        const { page } = details
        const last = details.next_pages.length === 0
        return {
          index: details.previous_pages.length,
          count: details.previous_pages.length + 1 + details.next_pages.length,
          id: page.id,
          title: page.id === "required" ? `${app.name} needs these details` : `Share more with ${app.name}?`,
          subtitle: page.id === "required"
            ? "They are shared each time you sign in."
            : "Tick what you want to share; you can change it the next time.",
          continue_label: last && !details.review ? "Continue to " + app.name : "Continue",
          layout: "list" as const,
          fields: page.fields.map(({ field, mode }) => fieldView(field, mode)),
          challenge: details.detail_challenge === null
            ? null
            : { ...challengeView(details.detail_challenge), field: details.detail_challenge.field },
          review_next: last && details.review
        }
      }
      const reviewView = (review: StepOf<"review">) => ({
        fields: review.pages.flatMap((p) => p.fields).map(({ field, mode }) => {
          const { label, shared, value } = fieldView(field, mode)
          return { field, mode, label, value, shared }
        })
      })
      const signupView = (signup: SignupStarted) => ({
        display_name: signup.display_name,
        id: null,
        timezone: state.timezone ?? "UTC",
        dob: null,
        pfp_url: signup.pfp_url,
        email: signup.channel === "email" ? maskEmail(signup.destination) : null,
        phone: signup.channel === "phone" ? maskPhone(signup.destination) : null,
        provider: signup.provider,
        provider_pfp_url: signup.provider_pfp_url,
        finishing_import: signup.imported !== null,
        imported_by: signup.imported === null ? null : { app_id: signup.imported.app_id, name: signup.imported.name },
        expires_at: signup.expires_at
      })
      const none = { challenge: null, signup: null, details: null, review: null, redirect_to: null, error: null }
      const shown = Step.$match(step, {
        choose_method: ({ error }) => ({ ...none, error }),
        verify_code: ({ challenge }) => ({ ...none, challenge: challengeView(challenge) }),
        signup: ({ signup }) => ({ ...none, signup: signupView(signup) }),
        details: (details) => ({ ...none, details: detailsView(details), error: details.error }),
        review: (review) => ({ ...none, review: reviewView(review), error: review.error }),
        complete: ({ error, redirect_to }) => ({ ...none, redirect_to, error }),
        failed: ({ error, redirect_to }) => ({ ...none, redirect_to, error })
      })
      return {
        id: row.id,
        step: step._tag,
        expires_at: row.expires_at.toISOString(),
        app: flowAppOf(app, app.signin_config),
        methods: enabledMethods(app.signin_config).filter(methodOffered(registry, app)),
        signed_in_as: Option.getOrNull(Option.map(account, (row) => accountSummary(row, publicUrl))),
        challenge: shown.challenge,
        signup: shown.signup,
        details: shown.details,
        review: shown.review,
        redirect_to: shown.redirect_to,
        error: shown.error,
        prompt: state.request.prompt.length === 0 ? null : state.request.prompt.join(" "),
        intent: state.request.intent,
        method_hint: state.request.method
      }
    })

  return { render, valuesOf } as const
})
