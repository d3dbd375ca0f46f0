/** Spec 1, Limits (Sizes and counts, Time budget): one CSV import. */
export const IMPORT_LIMITS = {
  bodyBytes: 50 * 1024 * 1024,
  rows: 100_000,
  columns: 200,
  columnNameBytes: 200,
  valueBytes: 8 * 1024,
  listItems: 50,
  emailsPerRow: 10,
  phonesPerRow: 10,
  externalIdCharacters: 255,
  parsesAtOnce: 2,
  busyRetryAfterSeconds: 15
} as const
