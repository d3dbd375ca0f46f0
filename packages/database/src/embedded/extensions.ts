import type { Extensions } from "@electric-sql/pglite"
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"

/**
 * The contrib extensions every embedded database carries, so that a migration's `create extension`
 * works on PGlite as on a PostgreSQL server (where they ship with the server): `pg_trgm` (trigram
 * similarity and its GIN indexes) and `fuzzystrmatch` (levenshtein), for the registry's search.
 * PGlite loads an extension's files only when the instance is created; it costs a few milliseconds
 * and nothing until a database runs `create extension`.
 */
export const embeddedExtensions: Extensions = { pg_trgm, fuzzystrmatch }
