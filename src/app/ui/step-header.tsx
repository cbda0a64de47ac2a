import type { ReactNode } from 'react'
import { type FlowStep, STEP_LABELS } from '../lib/steps'
import { StepIndicator } from './step-indicator'

/** The top of each step of the order flow (spec §2): where the shopper is among the six steps, the
 * step's title and, when it has one, the line under it. */
export function StepHeader({
  step,
  title,
  lead,
}: {
  step: FlowStep
  title: ReactNode
  lead?: ReactNode
}) {
  return (
    <>
      <StepIndicator steps={STEP_LABELS} current={step} />
      <h1 className="page__title">{title}</h1>
      {lead ? <p className="page__lead">{lead}</p> : null}
    </>
  )
}
