import nodemailer from 'nodemailer'
import type { Attachment } from './repo.ts'

// The one way out, nodemailer over SMTP (SMTP_URL: smtp://user:pass@host:port, or
// smtps:// for TLS from the first byte; smtp:// upgrades with STARTTLS when the server offers it).
// Without SMTP_URL there is no transport: mails stay in the outbox (status stored), readable by admins.

export type OutgoingMail = {
  from: string
  to: string
  subject: string
  text: string
  html: string
  attachments: readonly Attachment[]
  /** Stable across attempts: a receiving server or client can drop a duplicate (docs/mail.md). */
  messageId: string
}

export type MailTransport = {
  send(mail: OutgoingMail): Promise<void>
  close(): void
}

export function createSmtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    // A stalled server must not hold a mail longer than a few leases' worth; the attempt fails and
    // is retried with back-off instead.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  })
  return {
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.contentBase64, 'base64'),
        })),
      })
    },
    close: () => transporter.close(),
  }
}
