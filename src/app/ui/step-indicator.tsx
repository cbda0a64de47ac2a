import { useLingui } from '@lingui/react/macro'
import { STEP_LABELS } from '../lib/steps'

/** The six step labels of spec §2, the current one marked. */
export function StepIndicator({ current }: { current: (typeof STEP_LABELS)[number]['step'] }) {
  const { i18n, t } = useLingui()
  const index = STEP_LABELS.findIndex((s) => s.step === current)
  const currentLabel = STEP_LABELS[index] ? i18n._(STEP_LABELS[index].label) : ''
  return (
    <nav className="steps" aria-label={t`Order steps`}>
      <p className="steps__now">
        {t`Step ${index + 1} of ${STEP_LABELS.length}`}: <strong>{currentLabel}</strong>
      </p>
      <ol className="steps__list">
        {STEP_LABELS.map((step, i) => (
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
