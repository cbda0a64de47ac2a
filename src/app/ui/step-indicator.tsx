import type { MessageDescriptor } from '@lingui/core'
import { useLingui } from '@lingui/react/macro'

/**
 * A flow's step labels, the current one marked (spec §2: six steps). The steps come from the page,
 * so this component knows no flow and no store.
 */
export function StepIndicator<Step extends string>({
  steps,
  current,
}: {
  steps: readonly { step: Step; label: MessageDescriptor }[]
  current: NoInfer<Step>
}) {
  const { i18n, t } = useLingui()
  const index = steps.findIndex((s) => s.step === current)
  const currentLabel = steps[index] ? i18n._(steps[index].label) : ''
  const stepNumber = index + 1
  const stepCount = steps.length
  return (
    <nav className="steps" aria-label={t`Order steps`}>
      <p className="steps__now">
        {t`Step ${stepNumber} of ${stepCount}:`} <strong>{currentLabel}</strong>
      </p>
      <ol className="steps__list">
        {steps.map((step, i) => (
          <li
            key={step.step}
            className={`steps__item ${i < index ? 'steps__item--done' : ''} ${i === index ? 'steps__item--current' : ''}`}
            aria-current={i === index ? 'step' : undefined}
          >
            <span className="steps__dot" aria-hidden="true" />
            <span className="steps__label">{i18n._(step.label)}</span>
          </li>
        ))}
      </ol>
    </nav>
  )
}
