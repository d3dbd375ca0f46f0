import { SqlClient } from "@effect/sql"
import { rowsDecoder, violatedConstraint } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { VersionTaken } from "./errors.ts"
import { AuthorSignature, type Channel, CHANNELS, ReleasePackage } from "./Release.ts"

const Count = Schema.Union(Schema.Number, Schema.NumberFromString)

/** A release with its packages and the version of its replacement, as the queries below read it. */
export const ReleaseRow = Schema.Struct({
  id: Schema.String,
  app_id: Schema.String,
  channel: Schema.Literal(...CHANNELS),
  version: Schema.String,
  notes: Schema.NullOr(Schema.String),
  promoted_from: Schema.NullOr(Schema.String),
  sequence: Count,
  created_at: Schema.DateFromSelf,
  withdrawn_at: Schema.NullOr(Schema.DateFromSelf),
  withdrawn_by: Schema.NullOr(Schema.String),
  withdrawn_by_id: Schema.NullOr(Schema.String),
  withdrawal_reason: Schema.NullOr(Schema.String),
  replacement_release_id: Schema.NullOr(Schema.String),
  replacement_version: Schema.NullOr(Schema.String),
  author_signature: Schema.NullOr(AuthorSignature),
  packages: Schema.Array(ReleasePackage)
})
export type ReleaseRow = typeof ReleaseRow.Type
const decodeReleases = rowsDecoder(ReleaseRow)
const decodePackages = rowsDecoder(ReleasePackage)
const decodeSequence = rowsDecoder(Schema.Struct({ sequence: Count }))

const SELECT_RELEASES = `
  select r.id, r.app_id, r.channel, r.version, r.notes, r.promoted_from, r.sequence, r.created_at,
    r.withdrawn_at, r.withdrawn_by, r.withdrawn_by_id, r.withdrawal_reason, r.replacement_release_id,
    replacement.version as replacement_version, r.author_signature,
    coalesce((
      select jsonb_agg(jsonb_build_object('id', p.id, 'target', p.target, 'sha256', p.sha256, 'size', p.size) order by p.target)
      from release_packages rp join packages p on p.id = rp.package_id where rp.release_id = r.id
    ), '[]'::jsonb) as packages
  from releases r left join releases replacement on replacement.id = r.replacement_release_id`

export interface NewReleaseRow {
  readonly id: string
  readonly app_id: string
  readonly channel: Channel
  readonly version: string
  readonly notes: string | null
  readonly promoted_from: string | null
  readonly sequence: number
  readonly created_by: string
  readonly created_at: Date
  readonly author_signature: AuthorSignature | null
  readonly packages: ReadonlyArray<typeof ReleasePackage.Type>
}

export interface WithdrawalRow {
  readonly at: Date
  readonly byUuid: string
  readonly byId: string | null
  readonly reason: string
  readonly replacementId: string | null
}

/** Releases, their packages and their channels' state numbers. Database failures are defects, except a taken version. */
export class ReleasesRepo extends Effect.Service<ReleasesRepo>()("registry/ReleasesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const releases = (where: string, parameters: ReadonlyArray<unknown>, tail = "") =>
      sql.unsafe(`${SELECT_RELEASES} ${where} ${tail}`, parameters).pipe(Effect.flatMap(decodeReleases), Effect.orDie)
    const one = (where: string, parameters: ReadonlyArray<unknown>) =>
      Effect.map(releases(where, parameters, "limit 1"), (rows) => Option.fromNullable(rows[0]))

    const insertRelease = (release: NewReleaseRow) =>
      sql.withTransaction(sql`
        insert into releases (id, app_id, channel, version, notes, promoted_from, sequence, created_by, created_at, author_signature)
        values (${release.id}, ${release.app_id}, ${release.channel}, ${release.version}, ${release.notes}, ${release.promoted_from},
          ${release.sequence}, ${release.created_by}, ${release.created_at},
          ${release.author_signature === null ? null : JSON.stringify(release.author_signature)}::jsonb)
      `).pipe(
        Effect.catchTag("SqlError", (error) =>
          violatedConstraint(error) === "releases_app_id_channel_version_key"
            ? Effect.fail(
              new VersionTaken({
                message: `${release.app_id} already has a ${release.channel} release ${release.version}.`,
                hint: "Each channel has its own versions, withdrawn ones included: choose a new version.",
                details: { channel: release.channel, version: release.version }
              })
            )
            : Effect.die(error))
      )

    return {
      find: (appId: string, releaseId: string) => one("where r.app_id = $1 and r.id = $2", [appId, releaseId]),
      findByVersion: (appId: string, channel: Channel, version: string) =>
        one("where r.app_id = $1 and r.channel = $2 and r.version = $3", [appId, channel, version]),
      /** The app's releases (of one channel, or both), newest first. */
      list: (appId: string, channel: Option.Option<Channel>) =>
        Option.match(channel, {
          onNone: () => releases("where r.app_id = $1", [appId], "order by r.created_at desc, r.id desc"),
          onSome: (value) => releases("where r.app_id = $1 and r.channel = $2", [appId, value], "order by r.sequence desc")
        }),
      /** The channel's newest release that is not withdrawn and has a package for `target`. */
      newestServed: (appId: string, channel: Channel, target: string) =>
        one(
          `where r.app_id = $1 and r.channel = $2 and r.withdrawn_at is null
             and exists (select 1 from release_packages t where t.release_id = r.id and t.target = $3)
           order by r.sequence desc`,
          [appId, channel, target]
        ),
      /** The channel's withdrawn releases, the latest withdrawal first. */
      withdrawn: (appId: string, channel: Channel) =>
        releases("where r.app_id = $1 and r.channel = $2 and r.withdrawn_at is not null", [appId, channel], "order by r.withdrawn_at desc, r.sequence desc"),
      /** The channel's state number now (0 before its first release). */
      channelSequence: (appId: string, channel: Channel) =>
        sql`select sequence from release_channels where app_id = ${appId} and channel = ${channel}`.pipe(
          Effect.flatMap(decodeSequence),
          Effect.map((rows) => rows[0]?.sequence ?? 0),
          Effect.orDie
        ),
      /** Takes the channel's next state number (locking the channel's row until the transaction ends). */
      nextSequence: (appId: string, channel: Channel) =>
        sql`
          insert into release_channels (app_id, channel, sequence) values (${appId}, ${channel}, 1)
          on conflict (app_id, channel) do update set sequence = release_channels.sequence + 1
          returning sequence
        `.pipe(Effect.flatMap(decodeSequence), Effect.map((rows) => rows[0]!.sequence), Effect.orDie),
      /** The app's packages among `ids`. */
      packagesOfApp: (appId: string, ids: ReadonlyArray<string>) =>
        sql`select id, target, sha256, size from packages where app_id = ${appId} and id in ${sql.in(ids)}`.pipe(
          Effect.flatMap(decodePackages),
          Effect.orDie
        ),
      /** The release and its packages; VersionTaken when the channel has the version already (in a savepoint). */
      insert: (release: NewReleaseRow) =>
        Effect.gen(function*() {
          yield* insertRelease(release)
          yield* sql`insert into release_packages ${
            sql.insert(release.packages.map((item) => ({ release_id: release.id, package_id: item.id, target: item.target })))
          }`.pipe(Effect.orDie)
        }),
      /** Withdraws the release unless it is withdrawn already; whether it did. */
      withdraw: (releaseId: string, withdrawal: WithdrawalRow) =>
        sql`
          update releases
          set withdrawn_at = ${withdrawal.at}, withdrawn_by = ${withdrawal.byUuid}, withdrawn_by_id = ${withdrawal.byId},
            withdrawal_reason = ${withdrawal.reason}, replacement_release_id = ${withdrawal.replacementId}
          where id = ${releaseId} and withdrawn_at is null
          returning id
        `.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie)
    }
  })
}) {}
