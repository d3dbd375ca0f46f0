import { Effect } from "effect"
import { RegistryApi } from "../api.ts"
import { CurrentCaller } from "../auth/Caller.ts"
import { compiledGroup } from "@platform/service"

export const MeLive = compiledGroup(RegistryApi, "me", (handlers) =>
  Effect.succeed(
    handlers.handle("me", () =>
      Effect.map(CurrentCaller, (caller) => ({
        uuid: caller.uuid,
        id: caller.id,
        display_name: caller.displayName,
        verified_emails: caller.verifiedEmails
      })))
  ))
