import type { ConfigError } from "effect"

/** One line naming each bad setting as its environment variable, e.g. `ACCOUNTS_PORT must be …`. */
export const describeConfigError = (error: ConfigError.ConfigError): string => {
  switch (error._op) {
    case "And":
    case "Or":
      return `${describeConfigError(error.left)}; ${describeConfigError(error.right)}`
    case "InvalidData":
    case "MissingData":
    case "SourceUnavailable":
    case "Unsupported": {
      const name = error.path.join("_")
      const message = error.message.replace(/^Expected /, "must be ")
      // Some messages already start with the variable's name: don't say it twice.
      return message.startsWith(`${name} `) ? message : `${name} ${message}`
    }
  }
}
