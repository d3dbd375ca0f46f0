/**
 * Writes the registry's OpenAPI document to test/snapshots/openapi.json, the reviewed contract that
 * discovery.test.ts compares /openapi.json with. Run after a deliberate change of the API:
 * `npm run openapi:snapshot -w apps/registry`, then review the diff.
 */
import { OpenApi } from "@effect/platform"
import { writeFileSync } from "node:fs"
import { RegistryApi } from "../../src/api.ts"

const file = new URL("../snapshots/openapi.json", import.meta.url)
writeFileSync(file, `${JSON.stringify(OpenApi.fromApi(RegistryApi), null, 2)}\n`)
process.stdout.write(`written ${file.pathname}\n`)
