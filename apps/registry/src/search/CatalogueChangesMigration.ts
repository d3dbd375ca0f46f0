import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * A number that moves whenever what search reads changes (apps, their authors, releases and their packages),
 * so that a process may keep search answers and know at once when they are out of date (search/Search.ts).
 * A sequence, not a counter row: writers never wait on each other for it. The triggers run at commit
 * (deferred), as close as PostgreSQL allows to the moment the change becomes visible.
 */
export const CatalogueChangesMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create sequence catalogue_changes`
  yield* sql`
    create function catalogue_changed() returns trigger language plpgsql as $$
    begin
      perform nextval('catalogue_changes');
      return null;
    end
    $$
  `
  for (const table of ["apps", "app_authors", "releases", "release_packages"]) {
    yield* sql.unsafe(
      `create constraint trigger ${table}_catalogue_changed after insert or update or delete on ${table}
       deferrable initially deferred for each row execute function catalogue_changed()`
    )
  }
})
