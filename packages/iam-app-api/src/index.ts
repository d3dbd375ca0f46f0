export { FakeIam, type FakeIamControls, type FakeSubject } from "./FakeIam.ts"
export { SHORT_LIVED_TOKEN_GRANT } from "./grantTypes.ts"
export { ApplicationSessionsApi, IamApplicationApi, OnBehalfOfApi } from "./IamApplicationApi.ts"
export {
  FAKE_APP_ID,
  IAM_CALL_TIMEOUT,
  type IamApplicationCalls,
  IamApplicationClient,
  type IamApplicationClientOptions,
  type IamApplicationFailure,
  IamUnavailable,
  type RetryKey
} from "./IamApplicationClient.ts"
export * from "./requests.ts"
export * from "./responses.ts"
