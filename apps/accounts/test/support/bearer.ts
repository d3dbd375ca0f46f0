import { Effect } from "effect"
import { AccountsUnderTest } from "./AccountsUnderTest.ts"
import { fetchAnswer } from "./http.ts"

/** A JSON request to the server under test with a bearer token. */
export const callWithBearer = (method: string, path: string, token: string, body?: unknown) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    ))
