import { mail as mailApi } from '../../contract/mail.ts'
import type { OpsGuard } from '../auth/guard.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { ok } from '../platform/result.ts'
import type { MailService } from './service.ts'

// api-v1 "Operations", the outbox over HTTP: admins only, registered through the operators' guard
// (auth/guard.ts: session, role, no-store). The mail's bodies are readable one at a time, for the
// console's preview.

export function mailRoutes(router: ApiRouter, guard: OpsGuard, service: MailService) {
  guard.handle(router, mailApi.outbox, async () => ok({ mails: await service.list() }))

  guard.handle(router, mailApi.outboxMail, async ({ params }) => {
    const found = await service.mail(params.id)
    if (!found.ok) return found
    const { messageId: _messageId, attachments, ...mail } = found.value
    return ok({
      ...mail,
      attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType })),
    })
  })
}
