import { ApiError } from "@platform/http"
import { Either, Schema } from "effect"

/** The targets a package may be built for: operating system and CPU, as clients name their own platform. */
export const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const
export type Target = typeof TARGETS[number]

export const TargetSchema = Schema.Literal(...TARGETS).annotations({ identifier: "Target" })

export const isTarget = (value: string): value is Target => (TARGETS as ReadonlyArray<string>).includes(value)

const OPERATING_SYSTEMS: Partial<Record<NodeJS.Platform, string>> = { linux: "linux", darwin: "darwin", win32: "windows" }

/** The target of the machine the registry runs on: the only one whose packages it can run. */
export const hostTarget = (): Target | null => {
  const name = `${OPERATING_SYSTEMS[process.platform] ?? process.platform}-${process.arch}`
  return isTarget(name) ? name : null
}

/** A target the registry does not know, in the path or in a query: spec 2's bad value, answered with the accepted ones. */
export class UnknownTarget extends ApiError<UnknownTarget>()("UnknownTarget", {
  code: "unknown_target",
  status: 400,
  details: Schema.Struct({
    parameter: Schema.String,
    received: Schema.Array(Schema.String),
    accepted: Schema.Array(Schema.String)
  })
}) {}

export const unknownTarget = (parameter: string, received: ReadonlyArray<string>) =>
  new UnknownTarget({
    message: `Unknown target ${received.map((value) => JSON.stringify(value)).join(", ")} in ${parameter}; accepted: ${TARGETS.join(", ")}.`,
    hint: "Name one of the accepted targets (operating system and CPU, such as linux-x64).",
    details: { parameter, received: [...received], accepted: [...TARGETS] }
  })

/** The path's target, when it is one the registry knows. */
export const targetOf = (parameter: string, value: string): Either.Either<Target, UnknownTarget> =>
  isTarget(value) ? Either.right(value) : Either.left(unknownTarget(parameter, [value]))

/**
 * A comma list of targets (spaces around names allowed, repeats dropped, order kept); absent, every target.
 * An empty list or any unknown name refuses the whole list, naming every unknown one.
 */
export const targetList = (parameter: string, raw: string | undefined): Either.Either<ReadonlyArray<Target>, UnknownTarget> => {
  if (raw === undefined) return Either.right(TARGETS)
  const names = [...new Set(raw.split(",").map((name) => name.trim()))]
  const unknown = names.filter((name) => !isTarget(name))
  if (unknown.length > 0) return Either.left(unknownTarget(parameter, unknown))
  return Either.right(names.filter(isTarget))
}
