export { SANDBOX_APP_DIRECTORY, SANDBOX_HOME, SANDBOX_PATH } from "./bwrapArguments.ts"
export { SandboxUnavailable, UnsafeArchive, type UnsafeReason } from "./errors.ts"
export {
  DEFAULT_EXTRACT_LIMITS,
  type ExtractLimits,
  type Extracted,
  type ExtractedFile,
  extractTarGz,
  extractToFreshDirectory,
  freshDirectory
} from "./extract.ts"
export { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from "./limits.ts"
export { BWRAP, runSandboxed, type SandboxCommand, type SandboxResult } from "./run.ts"
export { detectRunner, type RunnerStatus } from "./runner.ts"
export { type PackEntry, packTarGz } from "./pack.ts"
