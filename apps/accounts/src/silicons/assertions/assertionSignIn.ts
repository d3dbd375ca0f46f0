import { Effect } from "effect"
import { now } from "@platform/service"
import { TokenIssuer } from "../../oauth/TokenIssuer.ts"
import { signinEligibility } from "../signinEligibility.ts"
import { AssertionVerifier } from "./AssertionVerifier.ts"

const CLIENT_LABEL_LIMIT = 100

/**
 * A Silicon signs in with a key assertion: at the token endpoint (jwt-bearer
 * grant) and at POST /v1/silicons/login. The assertion is checked first, so
 * only its signer learns why an account may not sign in.
 */
export const assertionSignIn = (assertion: string, clientLabel: string | null) =>
  Effect.gen(function*() {
    const verifier = yield* AssertionVerifier
    const issuer = yield* TokenIssuer
    const silicon = yield* verifier.verify(assertion)
    yield* signinEligibility(silicon)
    return yield* issuer.signIn({
      accountUuid: silicon.uuid,
      clientLabel: clientLabel === null ? null : clientLabel.slice(0, CLIENT_LABEL_LIMIT),
      method: "assertion",
      now: yield* now
    })
  }).pipe(Effect.withSpan("assertionSignIn"))
