import type { BeginInput, CompleteInput } from "../src/IdempotencyStore.ts"

export const createApp: BeginInput = {
  scope: "credential-digest:POST /v1/apps",
  key: "5f0c7a1e-4d1b-4c8e-9f00-1a2b3c4d5e6f",
  fingerprint: "a".repeat(64)
}

export const sameKeyOtherBody: BeginInput = { ...createApp, fingerprint: "b".repeat(64) }

export const createdResponse = (
  retention: CompleteInput["retention"] = "standard",
  request: BeginInput = createApp
): CompleteInput => ({
  ...request,
  status: 201,
  headers: { "content-type": "application/json", location: "/v1/apps/app_1" },
  body: new TextEncoder().encode(JSON.stringify({ id: "app_1", secret: "s3cr3t" })),
  retention
})
