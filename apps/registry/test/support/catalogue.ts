import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { RegistryUnderTest } from "./RegistryTest.ts"

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

/** One request to the registry under test, its JSON answer read. */
export const call = (
  method: string,
  path: string,
  options: { readonly headers?: Record<string, string>; readonly body?: unknown } = {}
): Effect.Effect<Answer, never, RegistryUnderTest> =>
  Effect.flatMap(RegistryUnderTest, ({ url }) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: text === "" ? null : JSON.parse(text) }
    }))

let serial = 0
/** A fresh valid app id with this stem. */
export const newAppId = (stem = "app") => `${stem}-${Date.now().toString(36)}${serial++}`

/** What the packages and releases areas would leave: an accepted package of the app in a development release. */
export const packagedRelease = (appId: string, uploadedBy: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const packageId = `pkg_${randomUUID().replaceAll("-", "")}`
    const releaseId = `rel_${randomUUID().replaceAll("-", "")}`
    const at = new Date()
    yield* sql`
      insert into packages (id, app_id, target, sha256, size, command, validation, bytes, uploaded_by, created_at)
      values (${packageId}, ${appId}, 'linux-x64', ${"0".repeat(64)}, 3, 'app', '[]'::jsonb, ${Buffer.from("abc")}, ${uploadedBy}, ${at})
    `
    yield* sql`
      insert into releases (id, app_id, channel, version, sequence, created_by, created_at)
      values (${releaseId}, ${appId}, 'development', '1.0.0', 1, ${uploadedBy}, ${at})
    `
    yield* sql`insert into release_packages (release_id, package_id, target) values (${releaseId}, ${packageId}, 'linux-x64')`
    return { packageId, releaseId }
  }).pipe(Effect.orDie)

export const DESCRIPTION = "A notes app for people and agents. ".repeat(7).trim()
