/** The platforms a package is built for (spec 2: a package per target). */
export const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const

export type Target = typeof TARGETS[number]

export const isTarget = (value: string): value is Target => (TARGETS as ReadonlyArray<string>).includes(value)
