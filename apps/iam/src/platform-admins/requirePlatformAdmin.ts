import { Effect, Option } from "effect"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { PlatformAdminRequired } from "./errors.ts"
import { PlatformAdminsRepo } from "./PlatformAdminsRepo.ts"

/** For /api/v1/admin/* handlers: the bearer's identity must be a Carbon with a current grant, read on every request. */
export const requirePlatformAdmin = Effect.gen(function*() {
  const identity = yield* CurrentIdentity
  const grant = identity.kind === "carbon" ? yield* (yield* PlatformAdminsRepo).current(identity.uuid) : Option.none()
  if (Option.isNone(grant)) {
    return yield* new PlatformAdminRequired({
      message: "Only a platform admin may do this.",
      hint: "An operator grants it: npm run iam -- admins grant --carbon-uuid <uuid>."
    })
  }
  return identity
})
