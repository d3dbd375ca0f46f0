import { Effect, Layer } from "effect"
import { AccountsApi } from "../api.ts"
import { makeContactRoutes } from "./ContactRoutes.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { compiledGroup } from "@platform/service"

/** A used code must not be lost to a dropped connection: verifying runs to the end. */
const toTheEnd = { uninterruptible: true } as const

const EmailsLive = compiledGroup(AccountsApi, "emails", (handlers) =>
  Effect.map(makeContactRoutes("email"), (routes) =>
    handlers
      .handle("list", ({ urlParams }) => routes.list(urlParams))
      .handle("add", ({ payload }) => routes.add(payload.email))
      .handle("verify", ({ payload }) => routes.verify(payload.challenge_id, payload.code), toTheEnd)
      .handle("resend", ({ payload }) => routes.resend(payload.challenge_id))
      .handle("makePrimary", ({ path }) => routes.makePrimary(path.email))
      .handle("remove", ({ path }) => routes.remove(path.email))))

const PhonesLive = compiledGroup(AccountsApi, "phones", (handlers) =>
  Effect.map(makeContactRoutes("phone"), (routes) =>
    handlers
      .handle("list", ({ urlParams }) => routes.list(urlParams))
      .handle("add", ({ payload }) => routes.add(payload.phone))
      .handle("verify", ({ payload }) => routes.verify(payload.challenge_id, payload.code), toTheEnd)
      .handle("resend", ({ payload }) => routes.resend(payload.challenge_id))
      .handle("makePrimary", ({ path }) => routes.makePrimary(path.phone))
      .handle("remove", ({ path }) => routes.remove(path.phone))))

/** The contacts area: a Carbon's emails and phones. */
export const ContactsLive = Layer.mergeAll(EmailsLive, PhonesLive).pipe(
  Layer.provide([ContactsRepo.Default, AccountsRepo.Default, AccountAuthLive])
)
