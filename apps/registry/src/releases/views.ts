import type { Release } from "./Release.ts"
import type { ReleaseRow } from "./ReleasesRepo.ts"

const replacementOf = (row: ReleaseRow) =>
  row.replacement_release_id === null || row.replacement_version === null
    ? null
    : { release_id: row.replacement_release_id, version: row.replacement_version }

/** The release's withdrawal, when it is withdrawn. */
export const withdrawalOf = (row: ReleaseRow) =>
  row.withdrawn_at === null || row.withdrawn_by === null || row.withdrawal_reason === null
    ? null
    : {
      withdrawn: { at: row.withdrawn_at, by_uuid: row.withdrawn_by, by_id: row.withdrawn_by_id, reason: row.withdrawal_reason },
      replacement: replacementOf(row)
    }

export const releaseOf = (row: ReleaseRow): Release => ({
  id: row.id,
  app_id: row.app_id,
  channel: row.channel,
  version: row.version,
  notes: row.notes,
  packages: row.packages,
  promoted_from: row.promoted_from,
  created_at: row.created_at,
  withdrawn: withdrawalOf(row)
})

/** A withdrawn version as resolve lists it (rows that are not withdrawn give none). */
export const withdrawnVersionsOf = (rows: ReadonlyArray<ReleaseRow>) =>
  rows.flatMap((row) => {
    const withdrawal = withdrawalOf(row)
    return withdrawal === null ? [] : [{
      release_id: row.id,
      version: row.version,
      reason: withdrawal.withdrawn.reason,
      withdrawn_at: withdrawal.withdrawn.at,
      replacement: withdrawal.replacement
    }]
  })
