import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { areaGraph, cyclesOf, servicesIn } from "../scripts/area-imports.ts"

const root = join(import.meta.dirname, "..")

describe("areas import each other in one direction only", () => {
  for (const service of servicesIn(root)) {
    const graph = areaGraph(service)
    it(`${graph.service}: no cycle between areas (npx tsx scripts/area-imports.ts shows the graph)`, () => {
      expect(graph.edges.size).toBeGreaterThan(0)
      expect(cyclesOf(graph)).toEqual([])
    })
  }

  it("a cycle is found when two areas import each other, however long the way round", () => {
    const graph = {
      service: "example",
      edges: new Map([
        ["a", new Map([["b", 1]])],
        ["b", new Map([["c", 2]])],
        ["c", new Map([["a", 1]])],
        ["d", new Map([["a", 1]])]
      ])
    }
    expect(cyclesOf(graph)).toEqual([["a", "b", "c"]])
  })
})
