import type { MiddlewareHandler } from 'hono'
import { mail as mailApi } from '../../contract/mail.ts'
import { problem, type Refusal, refuse } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { MailError, MailService } from './service.ts'

// api-v1 "Operations", the outbox over HTTP: admins only, behind the operators' guard (session, role;
// ops/ owns it). The mail's bodies are readable one at a time, for the console's preview.

export function mailRefusal(error: MailError): Refusal {
  switch (error.code) {
    case 'mail_not_found':
      return { status: 404, problems: [problem(error.code, 'No such mail')] }
  }
}

export function mailRoutes(router: ApiRouter, service: MailService, adminOnly: MiddlewareHandler) {
  router.handle(
    mailApi.outbox,
    async ({ c }) => {
      c.header('Cache-Control', 'no-store')
      return { mails: await service.list() }
    },
    adminOnly,
  )

  router.handle(
    mailApi.outboxMail,
    async ({ c, params }) => {
      const found = await service.mail(params.id)
      if (!found.ok) return refuse(mailRefusal(found.error))
      c.header('Cache-Control', 'no-store')
      const { messageId: _messageId, attachments, ...mail } = found.value
      return {
        ...mail,
        attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType })),
      }
    },
    adminOnly,
  )
}
