import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What search needs: trigram matching (`pg_trgm`, with GIN indexes on the app id and the lowercased
 * name, which serve LIKE '%…%' and the similarity operators) and edit distance (`fuzzystrmatch`).
 * Both ship with PostgreSQL and are trusted extensions (a database owner may create them); every
 * embedded database loads them (@platform/database).
 */
export const SearchMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create extension if not exists pg_trgm`
  yield* sql`create extension if not exists fuzzystrmatch`
  yield* sql`create index apps_app_id_trigrams on apps using gin (app_id gin_trgm_ops)`
  yield* sql`create index apps_name_trigrams on apps using gin (lower(name) gin_trgm_ops)`
  // The trigram operators are costed as cheap as `=`, so the planner scans every app computing them (~40 ms on
  // 10,000 apps) rather than read the trigram indexes (~10 ms). Their true cost sends it to the indexes. Where the
  // role does not own the extension's functions, search stays correct, only slower.
  yield* sql`
    do $$ begin
      alter function similarity_op(text, text) cost 1000;
      alter function word_similarity_op(text, text) cost 1000;
      alter function word_similarity_commutator_op(text, text) cost 1000;
    exception when insufficient_privilege then
      raise notice 'pg_trgm''s operators keep their default cost: search may scan every app';
    end $$
  `
})
