export { type Answer, fetchAnswer } from "@platform/testkit"
