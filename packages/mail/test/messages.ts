import type { OutgoingMessage } from "../src/OutgoingMessage.ts"

export const signInCode = (to: string, code = "123456"): OutgoingMessage => ({
  to,
  channel: "email",
  subject: "Your sign-in code",
  text: `Your sign-in code is ${code}. It expires in 10 minutes.`,
  code
})

export const phoneCode = (to: string, code = "654321"): OutgoingMessage => ({
  to,
  channel: "sms",
  subject: "Verification code",
  text: `Your verification code is ${code}.`,
  code
})
