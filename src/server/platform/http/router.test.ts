import { Hono } from 'hono'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { endpoint } from '../../../contract/endpoint.ts'
import { type Problem, problem } from '../../../contract/problems.ts'
import { type DomainProblem, domainProblem } from '../../../domain/problems.ts'
import { err, ok } from '../result.ts'
import { errorBody, HttpError } from './errors.ts'
import { refusing } from './refusing.ts'
import { createApiRouter } from './router.ts'

// A handler answers a Result, and its refusals are typed by its endpoint: the compiler refuses a
// code the endpoint does not declare (the @ts-expect-error lines below fail the typecheck if the
// compiler ever lets such a handler through).

const campaign = endpoint({
  name: 'testCampaign',
  method: 'GET',
  path: '/test/campaigns/{campaignId}',
  summary: 'A campaign',
  response: v.object({ campaignId: v.string() }),
  errors: ['campaign_not_found', ['campaign_forbidden', 404]],
})

function serve(register: (router: ReturnType<typeof createApiRouter>) => void) {
  const router = createApiRouter()
  register(router)
  const app = new Hono()
  app.route('/', router.hono)
  app.onError((error, c) =>
    error instanceof HttpError
      ? c.json({ ...errorBody(error.problems), ...error.extra }, error.status)
      : c.text('unexpected', 500),
  )
  return app
}

describe("a handler's answer", () => {
  it('is its Result: the value as JSON, a problem with its status and text', async () => {
    const app = serve((router) =>
      router.handle(campaign, ({ params }) =>
        params.campaignId === 'c1' ? ok({ campaignId: 'c1' }) : err(problem('campaign_not_found')),
      ),
    )
    const found = await app.request('/test/campaigns/c1')
    expect(found.status).toBe(200)
    expect(await found.json()).toEqual({ campaignId: 'c1' })
    const missing = await app.request('/test/campaigns/c2')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({
      errors: ['Campaign not found'],
      codes: ['campaign_not_found'],
    })
  })

  it('is a Response of its own as it is (a file, a redirect)', async () => {
    const app = serve((router) =>
      router.handle(campaign, ({ c }) => ok(c.redirect('/elsewhere', 303))),
    )
    const answer = await app.request('/test/campaigns/c1')
    expect(answer.status).toBe(303)
    expect(answer.headers.get('location')).toBe('/elsewhere')
  })

  it('refuses with a status and body fields of its own when the refusal says so', async () => {
    const app = serve((router) =>
      router.handle(campaign, () =>
        err({ problems: [problem('campaign_forbidden')], status: 404, extra: { hint: 'x' } }),
      ),
    )
    const answer = await app.request('/test/campaigns/c1')
    expect(answer.status).toBe(404)
    expect(await answer.json()).toMatchObject({ codes: ['campaign_forbidden'], hint: 'x' })
  })

  it("refuses with a declared code and lists the problems a job kept as data, with that code's status", async () => {
    const kept: Problem[] = [problem('order_not_found'), problem('event_not_found')]
    const app = serve((router) =>
      router.handle(campaign, ({ params }) =>
        err({ code: 'campaign_not_found' as const, kept: params.campaignId === 'c1' ? kept : [] }),
      ),
    )
    const listed = await app.request('/test/campaigns/c1')
    expect(listed.status).toBe(404)
    expect(await listed.json()).toMatchObject({ codes: ['order_not_found', 'event_not_found'] })
    const none = await app.request('/test/campaigns/c2')
    expect(none.status).toBe(404)
    expect(await none.json()).toMatchObject({ codes: ['campaign_not_found'] })
  })
})

describe("the compiler, for a handler's refusals", () => {
  it('refuses a problem code its endpoint does not declare', () => {
    const handle: ReturnType<typeof createApiRouter>['handle'] = (e, handler) =>
      createApiRouter().handle(e, handler)
    // declared, and bad input (400) on any endpoint: accepted
    handle(campaign, () => err(problem('campaign_not_found')))
    handle(campaign, async () => err({ problems: [problem('campaign_forbidden')] }))
    handle(campaign, () => err(problem('body_malformed')))
    // @ts-expect-error order_not_found is not among the endpoint's errors
    handle(campaign, () => err(problem('order_not_found')))
    handle(
      campaign,
      // @ts-expect-error neither inside a refusal of many problems
      async () => err({ problems: [problem('campaign_not_found'), problem('event_not_found')] }),
    )
    // @ts-expect-error nor a rule's problem passed on (422, not bad input)
    handle(campaign, () => err(domainProblem('campaign_start_past')))
    const anyRule = (): DomainProblem => domainProblem('campaign_end_too_far')
    // @ts-expect-error nor one of any of the rules' codes
    handle(campaign, () => err(anyRule()))
    const anyProblem = (): Problem => problem('campaign_not_found')
    // @ts-expect-error nor a problem of any code of the catalogue: no handler is let through
    handle(campaign, () => err(anyProblem()))
    // @ts-expect-error nor kept problems under a code the endpoint does not declare
    handle(campaign, () => err({ code: 'order_not_found' as const, kept: [] }))
    expect(true).toBe(true)
  })
})

describe("a middleware that answers in the handler's place (a rate limit)", () => {
  const limit = refusing(['too_many_requests'], async (_c, next) => {
    await next()
  })
  it('is refused in front of an endpoint that does not declare what it answers', () => {
    expect(() => createApiRouter().handle(campaign, () => ok({ campaignId: 'c1' }), limit)).toThrow(
      'testCampaign is guarded by middleware answering too_many_requests: declare it in its errors',
    )
  })
  it('is taken in front of one that declares it', async () => {
    const limited = endpoint({
      ...campaign,
      name: 'testLimitedCampaign',
      errors: [...campaign.errors, 'too_many_requests'],
    })
    const app = serve((router) => router.handle(limited, () => ok({ campaignId: 'c1' }), limit))
    expect(await (await app.request('/test/campaigns/c1')).json()).toEqual({ campaignId: 'c1' })
  })
})
