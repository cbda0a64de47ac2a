import type { AddressInfo } from 'node:net'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

// A real SMTP server in the test process ("Tests run a real SMTP server in-process"): it
// takes what nodemailer sends over a socket and parses each message with mailparser. It can be told to
// refuse every recipient (a 450, a temporary failure) to test retries.

export type SmtpTestServer = {
  url: string
  received: ParsedMail[]
  /** Refuse (true) or accept (false) every message from now on. */
  refuse(yes: boolean): void
  /** How many deliveries were refused. */
  refusals(): number
  /**
   * Runs `step` once, on the next message, after it is received and before it is accepted (the
   * sender then waits for the server's answer): a fault made while a send is under way.
   */
  beforeNextAccept(step: () => Promise<void>): void
  /** Waits until a received mail matches (polls; the test's own timeout bounds it). */
  waitFor(match: (mail: ParsedMail) => boolean): Promise<ParsedMail>
  close(): Promise<void>
}

export async function startSmtpTestServer(): Promise<SmtpTestServer> {
  const received: ParsedMail[] = []
  let refusing = false
  let refused = 0
  let nextStep: (() => Promise<void>) | null = null
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refusing) {
        refused++
        const error = Object.assign(new Error('Mailbox busy, try again later'), {
          responseCode: 450,
        })
        callback(error)
        return
      }
      callback()
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        async (mail) => {
          const step = nextStep
          nextStep = null
          await step?.().catch(() => undefined)
          received.push(mail)
          callback()
        },
        (error: Error) => callback(error),
      )
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse: (yes) => {
      refusing = yes
    },
    refusals: () => refused,
    beforeNextAccept: (step) => {
      nextStep = step
    },
    async waitFor(match) {
      for (;;) {
        const found = received.find(match)
        if (found) return found
        await new Promise((r) => setTimeout(r, 50))
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
