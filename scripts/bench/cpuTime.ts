import { readdirSync, readFileSync } from "node:fs"

const TICKS_PER_SECOND = 100 // USER_HZ on Linux

/** CPU seconds (user + system) each process has used so far, from /proc; none for a process that is gone or off Linux. */
export const cpuSeconds = (pids: ReadonlyArray<number>): Map<number, number> => {
  const used = new Map<number, number>()
  for (const pid of pids) {
    try {
      // Fields after the parenthesised command name; utime and stime are the 14th and 15th of the line.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
      used.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND)
    } catch {
      // gone
    }
  }
  return used
}

/** CPU seconds used between two readings by the processes alive at the second (a new one counts whole). */
const usedSince = (before: Map<number, number>, after: Map<number, number>): number =>
  [...after].reduce((total, [pid, seconds]) => total + seconds - (before.get(pid) ?? 0), 0)

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
  const server = serverPid === undefined ? [] : [serverPid]
  const before = { server: cpuSeconds(server), postgres: cpuSeconds(postgresPids()) }
  const result = await load()
  const requests = Math.max(1, result.rps * seconds)
  const perRequest = (seconds: number) => Math.round((seconds / requests) * 1e6)
  return {
    ...result,
    serverCpuUs: perRequest(usedSince(before.server, cpuSeconds(server))),
    postgresCpuUs: perRequest(usedSince(before.postgres, cpuSeconds(postgresPids())))
  }
}
