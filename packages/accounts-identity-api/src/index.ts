export {
  type AccountsDirectoryOptions,
  type AccountsDirectoryService,
  AccountsDirectory,
  type CreateCarbonRefusal,
  type CreateSiliconRefusal,
  makeAccountsDirectory
} from "./AccountsDirectory.ts"
export { AccountsIdentityApi, InternalIdentitiesApi } from "./Api.ts"
export {
  AccountNotFound,
  AccountsUnavailable,
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
