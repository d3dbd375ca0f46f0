export {
  type AccountsDirectoryOptions,
  type AccountsDirectoryService,
  AccountsDirectory,
  type CreateCarbonRefusal,
  type CreateSiliconRefusal,
  makeAccountsDirectory
} from "./AccountsDirectory.ts"
export { AccountsApps, type AccountsAppsService, makeAccountsApps, type Synced, type SyncRefusal } from "./AccountsApps.ts"
export { AccountsIdentityApi, InternalIdentitiesApi } from "./Api.ts"
export {
  AccountsAppsApi,
  AppStatus,
  IdTokenSigningAlg,
  internalAppsGroup,
  InternalAppsApi,
  RegistryApp,
  SyncedApp
} from "./AppsApi.ts"
export {
  AccountNotFound,
  AccountsUnavailable,
  AppSourceConflict,
  EmailInUse,
  IdentityNotActive,
  IdReserved,
  IdTaken,
  InternalApiDisabled,
  InternalTokenRequired,
  InvalidId,
  InvalidIdReason,
  InvalidInternalToken,
  PhoneInUse,
  requireActive
} from "./errors.ts"
export { FakeAccounts, type FakeAccountsControl } from "./fakeAccounts.ts"
export { FakeAccountsApps, type FakeAccountsAppsControl, type SyncCall } from "./fakeAccountsApps.ts"
export {
  CarbonIdentity,
  Identity,
  IdentityChange,
  IdentityChanges,
  IdentityStatus,
  NewCarbonIdentity,
  NewSiliconIdentity,
  SiliconIdentity
} from "./Identity.ts"
export { InternalAuth, internalTokenRefusals } from "./InternalAuth.ts"
