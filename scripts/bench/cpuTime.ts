import { readdirSync, readFileSync } from "node:fs"

const TICKS_PER_SECOND = 100 // USER_HZ on Linux

/** CPU seconds (user + system) the processes have used so far, from /proc; 0 for any that is gone or off Linux. */
export const cpuSeconds = (pids: ReadonlyArray<number>): number =>
  pids.reduce((total, pid) => {
    try {
      // Fields after the parenthesised command name; utime and stime are the 14th and 15th of the line.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
      return total + (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
    } catch {
      return total
    }
  }, 0)

/** The PostgreSQL server's processes on this machine (postmaster and backends), if /proc can tell. */
export const postgresPids = (): Array<number> => {
  try {
    return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).map(Number).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres"
      } catch {
        return false
      }
    })
  } catch {
    return []
  }
}

/** Runs `load` and answers it with the CPU time per request of `server` and of PostgreSQL, in microseconds. */
export const withCpuPerRequest = async <R extends { readonly rps: number }>(
  serverPid: number | undefined,
  seconds: number,
  load: () => Promise<R>
): Promise<R & { readonly serverCpuUs: number; readonly postgresCpuUs: number }> => {
  const postgres = postgresPids()
  const server = serverPid === undefined ? [] : [serverPid]
  const before = { server: cpuSeconds(server), postgres: cpuSeconds(postgres) }
  const result = await load()
  const requests = Math.max(1, result.rps * seconds)
  return {
    ...result,
    serverCpuUs: Math.round(((cpuSeconds(server) - before.server) / requests) * 1e6),
    postgresCpuUs: Math.round(((cpuSeconds(postgres) - before.postgres) / requests) * 1e6)
  }
}
