import { mail as mailApi } from '../../contract/mail.ts'
import type { OpsGuard } from '../auth/guard.ts'
import { problem, type Refusal, refuse } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { MailError, MailService } from './service.ts'

// api-v1 "Operations", the outbox over HTTP: admins only, registered through the operators' guard
// (auth/guard.ts: session, role, no-store). The mail's bodies are readable one at a time, for the
// console's preview.

export function mailRefusal(error: MailError): Refusal {
  switch (error.code) {
    case 'mail_not_found':
      return { status: 404, problems: [problem(error.code, 'No such mail')] }
  }
}

export function mailRoutes(router: ApiRouter, guard: OpsGuard, service: MailService) {
  guard.handle(router, mailApi.outbox, async () => ({ mails: await service.list() }))

  guard.handle(router, mailApi.outboxMail, async ({ params }) => {
    const found = await service.mail(params.id)
    if (!found.ok) return refuse(mailRefusal(found.error))
    const { messageId: _messageId, attachments, ...mail } = found.value
    return {
      ...mail,
      attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType })),
    }
  })
}
