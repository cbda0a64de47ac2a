import { order as orderApi } from '../../contract/index.ts'
import { errorResponse, problem, refuse } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { ClientLimits } from '../platform/rate-limit.ts'
import { paymentRefusal } from './refusals.ts'
import type { PaymentService } from './service.ts'

// api-v1 "Order", its payment part over HTTP: the setup intent (spec §7 call 11) and the local
// provider's test-card form.

export function paymentRoutes(router: ApiRouter, payment: PaymentService, limits: ClientLimits) {
  router.handle(
    orderApi.setupIntent,
    async ({ c }) => {
      const length = Number(c.req.header('content-length') ?? '0')
      if (length > 1024) {
        return errorResponse(c, 413, problem('body_not_expected'))
      }
      const setup = await payment.createSetup()
      return setup.ok ? setup.value : refuse(paymentRefusal(setup.error))
    },
    limits.writes('setup-intents'),
  )

  router.handle(
    orderApi.localConfirm,
    async ({ body }) => {
      const confirmed = await payment.confirmLocalCard(body)
      return confirmed.ok ? confirmed.value : refuse(paymentRefusal(confirmed.error))
    },
    limits.writes('card-confirms'),
  )

  router.handle(
    orderApi.localAuthenticate,
    async ({ body }) => {
      const answered = await payment.authenticateLocal(body)
      return answered.ok ? answered.value : refuse(paymentRefusal(answered.error))
    },
    limits.writes('card-confirms'),
  )
}
