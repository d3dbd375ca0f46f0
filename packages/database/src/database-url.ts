import { Effect, Redacted } from "effect"
import { DatabaseError } from "./database-error.ts"

/** A validated `postgres://` URL, kept redacted, with a password-free description for messages and logs. */
export interface DatabaseUrl {
  readonly url: Redacted.Redacted<string>
  readonly description: string
  /** Removes the URL's password from a text that may have picked it up (a driver's error message). */
  readonly scrub: (text: string) => string
}

export const parseDatabaseUrl = (url: Redacted.Redacted<string>): Effect.Effect<DatabaseUrl, DatabaseError> =>
  Effect.suspend(() => {
    const parsed = parseUrl(Redacted.value(url))
    if (parsed === null || (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:")) {
      return Effect.fail(
        new DatabaseError({ message: "the database URL is not a valid postgres://user:password@host:port/database URL" })
      )
    }
    const password = decodeURIComponent(parsed.password)
    const user = parsed.username === "" ? "" : `${decodeURIComponent(parsed.username)}@`
    return Effect.succeed({
      url,
      description: `postgres://${user}${parsed.host}${parsed.pathname}`,
      scrub: (text) => (password === "" ? text : text.replaceAll(password, "***"))
    })
  })

const parseUrl = (text: string): URL | null => {
  try {
    return new URL(text)
  } catch {
    return null
  }
}
