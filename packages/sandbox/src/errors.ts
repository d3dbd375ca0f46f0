import { Data } from "effect"

/** Why an archive was refused: the first offending entry decides. */
export type UnsafeReason =
  | "not_gzip_tar"
  | "absolute_path"
  | "parent_reference"
  | "invalid_name"
  | "symlink"
  | "hard_link"
  | "device"
  | "fifo"
  | "unsupported_type"
  | "duplicate_entry"
  | "too_many_entries"
  | "file_too_large"
  | "total_too_large"

/** An archive refused before or while it was unpacked, naming the entry that decided it (null: the archive as a whole). */
export class UnsafeArchive extends Data.TaggedError("UnsafeArchive")<{
  readonly reason: UnsafeReason
  readonly entry: string | null
  readonly message: string
  /** The limit that was passed, for the limit reasons. */
  readonly limit?: number
}> {}

/** bubblewrap cannot run here (absent, or namespaces refused): nothing can be run sandboxed. */
export class SandboxUnavailable extends Data.TaggedError("SandboxUnavailable")<{ readonly message: string }> {}
