import { Either } from "effect"
import { ReturnToNotRegistered } from "./errors.ts"
import type { LoginApplication } from "./LoginApplication.ts"

/**
 * Where a login's tokens go (decisions.md, "Where the tokens of a login go"): the `return_to` asked for
 * when it is, exactly, a registered callback URL of one of the login's applications; without one, the
 * first registered callback of the first application that has one.
 */
export const chooseReturnTo = (
  applications: ReadonlyArray<LoginApplication>,
  asked: string | undefined
): Either.Either<string, ReturnToNotRegistered> => {
  if (asked !== undefined) {
    return applications.some((app) => app.callback_urls.includes(asked))
      ? Either.right(asked)
      : Either.left(
        new ReturnToNotRegistered({
          message: "return_to is not a registered callback URL of any application of this login.",
          hint: "Use one of the callback URLs registered for these applications, exactly as registered."
        })
      )
  }
  const first = applications.find((app) => app.callback_urls.length > 0)?.callback_urls[0]
  return first === undefined
    ? Either.left(
      new ReturnToNotRegistered({ message: "None of these applications has a registered callback URL to send the login to." })
    )
    : Either.right(first)
}

export interface HandedToken {
  readonly app_id: string
  readonly slt: string
  readonly expires_in: number
  readonly expires_at: string
  readonly request_id: string
}

/** The callback with the tokens in its fragment (spec 2: slts=<URL-encoded JSON array>), which never reaches a server. */
export const withTokens = (returnTo: string, tokens: ReadonlyArray<HandedToken>): string => {
  const url = new URL(returnTo)
  url.hash = ""
  const list = tokens.map(({ app_id, slt, expires_in, expires_at, request_id }) => ({ app_id, slt, expires_in, expires_at, request_id }))
  return `${url.href}#slts=${encodeURIComponent(JSON.stringify(list))}`
}
