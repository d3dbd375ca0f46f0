import { Config, Option, Redacted } from "effect"

/** `<prefix>DATABASE_URL` (optional; blank counts as unset) and `<prefix>DATA_DIR` (default `data/<service>`). */
export const DatabaseConfig = (options: {
  readonly prefix: string
  readonly service: string
}): Config.Config<{ readonly url: Option.Option<Redacted.Redacted<string>>; readonly dataDir: string }> =>
  Config.all({
    url: Config.option(Config.redacted(`${options.prefix}DATABASE_URL`)).pipe(
      Config.map(Option.filter((url) => Redacted.value(url).trim() !== ""))
    ),
    dataDir: Config.string(`${options.prefix}DATA_DIR`).pipe(Config.withDefault(`data/${options.service}`))
  })
